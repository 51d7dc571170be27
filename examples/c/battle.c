/* A battle of Button Up! against buttonup's AI, through the C library.
 *
 * Build and run (from the root of the tree, after `cargo build --release`):
 *   cc -O2 -Wall -Wextra -o target/battle examples/c/battle.c -Icapi/include \
 *      -Ltarget/release -lbuttonup_c && LD_LIBRARY_PATH=target/release target/battle
 * or statically:
 *   cc -O2 -o target/battle examples/c/battle.c -Icapi/include \
 *      target/release/libbuttonup_c.a -lpthread -ldl -lm && target/battle
 *
 * Red is played by this program (it lifts the legal pile whose move the solver rates
 * best, as a front end's hint would), Black by the AI at level 5 with a time limit of
 * 50 ms a move. Every call's status is checked: a failure prints the library's message
 * and exits 1. Optional arguments: LEVEL SEED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buttonup.h"

static void check(ButtonupStatus status, const char *what) {
    if (status != BUTTONUP_STATUS_OK) {
        fprintf(stderr, "%s failed (status %d): %s\n", what, (int)status, buttonup_last_error());
        exit(1);
    }
}

/* The legal move with the best exact value for the side to move. */
static uint32_t hint(const ButtonupPosition *position) {
    ButtonupMoveValue values[BUTTONUP_MAX_BUTTONS];
    size_t count = 0;
    check(buttonup_analyze(position, 1, values, BUTTONUP_MAX_BUTTONS, &count), "analyze");
    size_t best = 0;
    for (size_t i = 1; i < count; i++) {
        if (values[i].value > values[best].value) best = i;
    }
    return values[best].pile;
}

int main(int argc, char **argv) {
    uint32_t level = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 5;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    printf("buttonup %s, AI level %u\n", buttonup_version(), level);

    /* A bad notation is an error with a message, not a crash. */
    ButtonupPosition *bad = NULL;
    ButtonupStatus status = buttonup_position_parse("W/R/X r", &bad);
    printf("parse \"W/R/X r\": status %d, %s\n", (int)status, buttonup_last_error());

    ButtonupBot *bot = NULL;
    check(buttonup_bot_new(level, seed, &bot), "bot_new");
    ButtonupPosition *position = NULL;
    check(buttonup_position_random(BUTTONUP_STANDARD_PER_COLOUR, BUTTONUP_PLAYER_RED, seed,
                                   &position), "position_random");
    int32_t value = 0;
    check(buttonup_solve(position, 0, &value), "solve");
    char *text = NULL;
    check(buttonup_position_notation(position, &text), "position_notation");
    printf("start %s (value for Red under perfect play: %+d)\n", text, value);
    buttonup_string_free(text);

    bool over = false;
    check(buttonup_position_is_over(position, &over), "is_over");
    while (!over) {
        ButtonupPlayer mover;
        check(buttonup_position_to_move(position, &mover), "to_move");
        uint32_t pile;
        if (mover == BUTTONUP_PLAYER_RED) {
            pile = hint(position);
        } else {
            check(buttonup_bot_choose(bot, position, NULL, 50, &pile), "bot_choose");
        }
        ButtonupPosition *next = NULL;
        ButtonupMove move;
        check(buttonup_position_play(position, pile, &next, &move), "position_play");
        buttonup_position_free(position);
        position = next;
        check(buttonup_position_notation(position, &text), "position_notation");
        printf("%s lifts pile %u%s, drops on", mover == BUTTONUP_PLAYER_RED ? "Red  " : "Black",
               pile, move.extra_move ? " (+ extra move)" : "");
        for (uint32_t i = 0; i < move.drop_count; i++) printf(" %u", move.drops[i]);
        printf(": %s\n", text);
        buttonup_string_free(text);
        check(buttonup_position_is_over(position, &over), "is_over");
    }

    ButtonupScoring scoring;
    check(buttonup_position_scoring(position, &scoring), "scoring");
    const char *winner = scoring.winner == BUTTONUP_PLAYER_RED     ? "Red"
                         : scoring.winner == BUTTONUP_PLAYER_BLACK ? "Black"
                                                                   : "nobody";
    printf("final: red %u, black %u: %s wins %u points\n", scoring.red, scoring.black, winner,
           scoring.points);

    /* An illegal move on the final pile: refused, with the reason. */
    ButtonupPosition *after = NULL;
    status = buttonup_position_play(position, 0, &after, NULL);
    printf("play on the final pile: status %d, %s\n", (int)status, buttonup_last_error());
    buttonup_position_free(position);

    /* A match: the chance of winning it before the first move, and its record. */
    ButtonupMatch *game = NULL;
    check(buttonup_match_new(BUTTONUP_PLAYER_RED, BUTTONUP_STANDARD_TARGET,
                                BUTTONUP_STANDARD_PER_COLOUR, seed, &game), "match_new");
    double red = 0;
    check(buttonup_match_win_probability(game, &red), "match_win_probability");
    uint32_t first;
    ButtonupPosition *start = NULL;
    check(buttonup_match_position(game, &start), "match_position");
    check(buttonup_bot_choose(bot, start, game, 0, &first), "bot_choose");
    check(buttonup_match_play(game, first, NULL), "match_play");
    buttonup_position_free(start);
    char *record = NULL;
    check(buttonup_match_record(game, &record), "match_record");
    printf("match: Red's chance %.4f before the first move; its record:\n%s", red, record);
    /* The record reads back to the same match. */
    ButtonupMatch *again = NULL;
    check(buttonup_match_from_record(record, &again), "match_from_record");
    char *record_again = NULL;
    check(buttonup_match_record(again, &record_again), "match_record");
    printf("the record reads back %s\n",
           strcmp(record, record_again) == 0 ? "to the same record" : "to ANOTHER record");
    buttonup_string_free(record_again);
    buttonup_match_free(again);
    buttonup_string_free(record);
    buttonup_match_free(game);
    buttonup_bot_free(bot);
    return 0;
}
