/* The C door of the AI parity suite (tests/doors/test_parity.py), a front end as a C author
 * writes one: reads "LEVEL SEED TIME_LIMIT_MS" (LEVEL a level, or rRATING for a bot of
 * that rating) then one position a line from standard input, makes one bot and prints
 * its move on each position in turn, one a line. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buttonup.h"

int main(void) {
    char who[64];
    uint64_t seed, time_limit_ms;
    char line[4096];
    if (!fgets(line, sizeof line, stdin) ||
        sscanf(line, "%63s %" SCNu64 " %" SCNu64, who, &seed, &time_limit_ms) != 3) {
        fprintf(stderr, "expected LEVEL SEED TIME_LIMIT_MS\n");
        return 2;
    }
    ButtonupBot *bot = NULL;
    ButtonupStatus made = who[0] == 'r'
        ? buttonup_bot_new_rated(strtod(who + 1, NULL), seed, &bot)
        : buttonup_bot_new((uint32_t)strtoul(who, NULL, 10), seed, &bot);
    if (made != BUTTONUP_STATUS_OK) {
        fprintf(stderr, "bot: %s\n", buttonup_last_error());
        return 1;
    }
    int failed = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        ButtonupPosition *position = NULL;
        uint32_t pile = 0;
        if (buttonup_position_parse(line, &position) != BUTTONUP_STATUS_OK ||
            buttonup_bot_choose(bot, position, NULL, time_limit_ms, &pile) != BUTTONUP_STATUS_OK) {
            fprintf(stderr, "%s: %s\n", line, buttonup_last_error());
            failed = 1;
        }
        printf("%" PRIu32 "\n", pile);
        buttonup_position_free(position);
    }
    buttonup_bot_free(bot);
    return failed;
}
