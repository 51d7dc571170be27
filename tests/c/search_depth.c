/* The C door of tests/test_learned_eval.py: reads "DEPTH" then one position a line from
 * standard input and prints the best move of one search of each within that depth
 * (buttonup_search), one a line. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "buttonup.h"

int main(void) {
    unsigned depth;
    char line[4096];
    if (!fgets(line, sizeof line, stdin) || sscanf(line, "%u", &depth) != 1) {
        fprintf(stderr, "expected DEPTH\n");
        return 2;
    }
    int failed = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        ButtonupPosition *position = NULL;
        ButtonupSearchResult result = {0};
        if (buttonup_position_parse(line, &position) != BUTTONUP_STATUS_OK ||
            buttonup_search(position, 1, depth, 0, 0, &result) != BUTTONUP_STATUS_OK) {
            fprintf(stderr, "%s: %s\n", line, buttonup_last_error());
            failed = 1;
        }
        printf("%" PRIu32 " %u %d\n", result.pile, result.depth, result.exact ? 1 : 0);
        buttonup_position_free(position);
    }
    return failed;
}
