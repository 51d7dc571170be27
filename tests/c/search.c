/* The C door of the search parity suite (tests/doors/test_parity.py) and of
 * tests/search/test_learned_eval.py: reads "THREADS DEPTH NODES TIME_LIMIT_MS" (0: no such
 * limit; THREADS 0: every core), then one position a line, and prints what one search
 * of each found (buttonup_search), one a line: "PILE VALUE EXACT DEPTH NODES THREADS". */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "buttonup.h"

int main(void) {
    unsigned threads, depth;
    uint64_t nodes, time_limit_ms;
    char line[4096];
    if (!fgets(line, sizeof line, stdin) ||
        sscanf(line, "%u %u %" SCNu64 " %" SCNu64, &threads, &depth, &nodes, &time_limit_ms) !=
            4) {
        fprintf(stderr, "expected THREADS DEPTH NODES TIME_LIMIT_MS\n");
        return 2;
    }
    int failed = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        ButtonupPosition *position = NULL;
        ButtonupSearchResult result = {0};
        if (buttonup_position_parse(line, &position) != BUTTONUP_STATUS_OK ||
            buttonup_search(position, threads, depth, nodes, time_limit_ms, &result) !=
                BUTTONUP_STATUS_OK) {
            fprintf(stderr, "%s: %s\n", line, buttonup_last_error());
            failed = 1;
        }
        printf("%" PRIu32 " %g %d %u %" PRIu64 " %" PRIu32 "\n", result.pile, result.value,
               result.exact ? 1 : 0, result.depth, result.nodes, result.threads);
        buttonup_position_free(position);
    }
    return failed;
}
