/* What a careless C caller passes, through every entry point of buttonup.h: NULL for
 * each pointer, count-only calls, too little room, numbers at their limits, players
 * outside the enum, text that is not UTF-8 or not notation, a cut record. Each call's
 * status is checked, outputs are checked untouched on failure, and the library is used
 * normally afterwards. Run `ROUNDS` times (argument 1, default 1) so that a leak grows;
 * tests/doors/test_capi_memory.py runs it plain, under valgrind and built with ASan and UBSan.
 * Prints "ok CHECKS" and exits 0, or names each failed check and exits 1. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buttonup.h"

static int checks = 0;
static int failures = 0;

static void expect(int line, ButtonupStatus got, ButtonupStatus want) {
    checks++;
    if (got != want) {
        failures++;
        fprintf(stderr, "line %d: status %d, expected %d (%s)\n", line, got, want,
                buttonup_last_error());
    } else if (want != BUTTONUP_STATUS_OK && buttonup_last_error()[0] == '\0') {
        failures++;
        fprintf(stderr, "line %d: failed with no message\n", line);
    }
}

static void truth(int line, int condition, const char *what) {
    checks++;
    if (!condition) {
        failures++;
        fprintf(stderr, "line %d: %s\n", line, what);
    }
}

#define EXPECT(call, want) expect(__LINE__, (call), (want))
#define TRUE(condition) truth(__LINE__, (condition), #condition)

#define OK BUTTONUP_STATUS_OK
#define NUL BUTTONUP_STATUS_NULL_ARGUMENT
#define BAD BUTTONUP_STATUS_INVALID_ARGUMENT

/* Sentinels: an output still holding one was not written. */
#define UNTOUCHED_PTR ((void *)0x1)
#define UNTOUCHED_U32 0xDEADBEEFu

static ButtonupPosition *parse(const char *text) {
    ButtonupPosition *out = NULL;
    EXPECT(buttonup_position_parse(text, &out), OK);
    return out;
}

static void positions(void) {
    ButtonupPosition *out = UNTOUCHED_PTR;
    EXPECT(buttonup_position_parse(NULL, &out), NUL);
    TRUE(out == UNTOUCHED_PTR);
    EXPECT(buttonup_position_parse("W/R/B r", NULL), NUL);
    EXPECT(buttonup_position_parse("W/R/X r", &out), BUTTONUP_STATUS_NOTATION_ERROR);
    EXPECT(buttonup_position_parse("\xff\xfe r", &out), BUTTONUP_STATUS_NOTATION_ERROR);
    EXPECT(buttonup_position_parse("", &out), BUTTONUP_STATUS_NOTATION_ERROR);
    TRUE(out == UNTOUCHED_PTR);

    uint32_t limits[] = {0, 11, 1u << 31, UINT32_MAX};
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
        EXPECT(buttonup_position_random(limits[i], BUTTONUP_PLAYER_RED, 1, &out), BAD);
        EXPECT(buttonup_position_random(3, limits[i] == 0 ? 3 : limits[i], 1, &out), BAD);
        EXPECT(buttonup_position_random(3, 0, UINT64_MAX, &out), BAD);
    }
    TRUE(out == UNTOUCHED_PTR);
    EXPECT(buttonup_position_random(3, BUTTONUP_PLAYER_RED, 7, NULL), NUL);

    ButtonupPosition *start = NULL;
    EXPECT(buttonup_position_random(3, BUTTONUP_PLAYER_BLACK, UINT64_MAX, &start), OK);
    char *text = UNTOUCHED_PTR;
    EXPECT(buttonup_position_notation(NULL, &text), NUL);
    EXPECT(buttonup_position_notation(start, NULL), NUL);
    TRUE(text == UNTOUCHED_PTR);
    EXPECT(buttonup_position_notation(start, &text), OK);
    TRUE(buttonup_last_error()[0] == '\0');
    buttonup_string_free(text);

    ButtonupPlayer player = BUTTONUP_PLAYER_NONE;
    bool over = true;
    uint32_t piles = UNTOUCHED_U32;
    EXPECT(buttonup_position_to_move(NULL, &player), NUL);
    EXPECT(buttonup_position_to_move(start, NULL), NUL);
    EXPECT(buttonup_position_is_over(NULL, &over), NUL);
    EXPECT(buttonup_position_is_over(start, NULL), NUL);
    EXPECT(buttonup_position_pile_count(NULL, &piles), NUL);
    EXPECT(buttonup_position_pile_count(start, NULL), NUL);
    TRUE(player == BUTTONUP_PLAYER_NONE && over && piles == UNTOUCHED_U32);
    EXPECT(buttonup_position_to_move(start, &player), OK);
    EXPECT(buttonup_position_is_over(start, &over), OK);
    EXPECT(buttonup_position_pile_count(start, &piles), OK);
    TRUE(player == BUTTONUP_PLAYER_BLACK && !over && piles == 9);

    /* Legal moves: count only, too little room, NULL count. */
    uint32_t moves[BUTTONUP_MAX_BUTTONS];
    size_t count = 12345;
    EXPECT(buttonup_position_legal_moves(start, NULL, 0, &count), OK);
    TRUE(count == 3);
    count = 12345;
    moves[0] = UNTOUCHED_U32;
    EXPECT(buttonup_position_legal_moves(start, moves, 2, &count), BAD);
    TRUE(count == 12345 && moves[0] == UNTOUCHED_U32);
    EXPECT(buttonup_position_legal_moves(start, NULL, 5, &count), NUL);
    EXPECT(buttonup_position_legal_moves(start, moves, BUTTONUP_MAX_BUTTONS, NULL), NUL);
    EXPECT(buttonup_position_legal_moves(NULL, moves, BUTTONUP_MAX_BUTTONS, &count), NUL);
    TRUE(count == 12345);
    EXPECT(buttonup_position_legal_moves(start, moves, SIZE_MAX, &count), OK);
    TRUE(count == 3);

    /* Play: NULL next, a pile past the end, a pile without white, the outcome optional. */
    ButtonupPosition *next = UNTOUCHED_PTR;
    ButtonupMove outcome;
    memset(&outcome, 0xAB, sizeof outcome);
    EXPECT(buttonup_position_play(start, moves[0], NULL, &outcome), NUL);
    EXPECT(buttonup_position_play(NULL, moves[0], &next, &outcome), NUL);
    EXPECT(buttonup_position_play(start, UINT32_MAX, &next, &outcome), BUTTONUP_STATUS_ILLEGAL_MOVE);
    EXPECT(buttonup_position_play(start, 9, &next, &outcome), BUTTONUP_STATUS_ILLEGAL_MOVE);
    TRUE(next == UNTOUCHED_PTR && outcome.pile == 0xABABABABu);
    EXPECT(buttonup_position_play(start, moves[0], &next, NULL), OK);
    buttonup_position_free(next);

    /* Scoring: not over, then over. */
    ButtonupScoring scoring = {UNTOUCHED_U32, UNTOUCHED_U32, BUTTONUP_PLAYER_NONE, UNTOUCHED_U32};
    EXPECT(buttonup_position_scoring(start, &scoring), BUTTONUP_STATUS_WRONG_STATE);
    EXPECT(buttonup_position_scoring(NULL, &scoring), NUL);
    TRUE(scoring.red == UNTOUCHED_U32);
    ButtonupPosition *final = parse("WRBRWB r");
    EXPECT(buttonup_position_scoring(final, NULL), NUL);
    EXPECT(buttonup_position_scoring(final, &scoring), OK);
    /* Red's heights 2 + 4, Black's 3 + 6. */
    TRUE(scoring.red == 6 && scoring.black == 9 && scoring.winner == BUTTONUP_PLAYER_BLACK &&
         scoring.points == 3);
    EXPECT(buttonup_position_legal_moves(final, NULL, 0, &count), OK);
    TRUE(count == 0);

    /* Solve, analyze and search. */
    int32_t value = INT32_MIN;
    EXPECT(buttonup_solve(NULL, 1, &value), NUL);
    EXPECT(buttonup_solve(start, 1, NULL), NUL);
    TRUE(value == INT32_MIN);
    EXPECT(buttonup_solve(start, UINT32_MAX, &value), OK);
    int32_t solved = value;
    ButtonupMoveValue values[BUTTONUP_MAX_BUTTONS];
    values[0].pile = UNTOUCHED_U32;
    count = 12345;
    EXPECT(buttonup_analyze(start, 1, NULL, 0, &count), OK);
    TRUE(count == 3);
    count = 12345;
    EXPECT(buttonup_analyze(start, 1, values, 1, &count), BAD);
    EXPECT(buttonup_analyze(start, 1, NULL, 32, &count), NUL);
    EXPECT(buttonup_analyze(start, 1, values, 32, NULL), NUL);
    EXPECT(buttonup_analyze(NULL, 1, values, 32, &count), NUL);
    TRUE(count == 12345 && values[0].pile == UNTOUCHED_U32);
    EXPECT(buttonup_analyze(start, UINT32_MAX, values, 32, &count), OK);
    int32_t best = INT32_MIN;
    for (size_t i = 0; i < count; i++) best = values[i].value > best ? values[i].value : best;
    TRUE(count == 3 && best == solved);
    EXPECT(buttonup_analyze(final, 1, values, 32, &count), OK);
    TRUE(count == 0);

    ButtonupSearchResult result;
    memset(&result, 0xAB, sizeof result);
    EXPECT(buttonup_search(NULL, 1, 0, 0, 0, &result), NUL);
    EXPECT(buttonup_search(start, 1, 0, 0, 0, NULL), NUL);
    EXPECT(buttonup_search(final, 1, 0, 0, 0, &result), BUTTONUP_STATUS_ILLEGAL_MOVE);
    TRUE(result.pile == 0xABABABABu);
    EXPECT(buttonup_search(start, 1, UINT32_MAX, UINT64_MAX, UINT64_MAX, &result), OK);
    TRUE(result.exact && (int32_t)result.value == solved);
    EXPECT(buttonup_search(start, 1, 1, 0, 0, &result), OK);
    TRUE(result.depth == 1);

    buttonup_position_free(final);
    buttonup_position_free(start);
    buttonup_position_free(NULL);
}

static void matches(void) {
    ButtonupMatch *game = UNTOUCHED_PTR;
    EXPECT(buttonup_match_new(BUTTONUP_PLAYER_RED, 15, 3, 1, NULL), NUL);
    EXPECT(buttonup_match_new(0, 15, 3, 1, &game), BAD);
    EXPECT(buttonup_match_new(3, 15, 3, 1, &game), BAD);
    EXPECT(buttonup_match_new(UINT32_MAX, 15, 3, 1, &game), BAD);
    EXPECT(buttonup_match_new(BUTTONUP_PLAYER_RED, 0, 3, 1, &game), BAD);
    EXPECT(buttonup_match_new(BUTTONUP_PLAYER_RED, 15, 0, 1, &game), BAD);
    EXPECT(buttonup_match_new(BUTTONUP_PLAYER_RED, 15, UINT32_MAX, 1, &game), BAD);
    TRUE(game == UNTOUCHED_PTR);
    EXPECT(buttonup_match_new(BUTTONUP_PLAYER_RED, 2, 3, UINT64_MAX, &game), OK);

    ButtonupPosition *position = UNTOUCHED_PTR;
    EXPECT(buttonup_match_position(NULL, &position), NUL);
    EXPECT(buttonup_match_position(game, NULL), NUL);
    TRUE(position == UNTOUCHED_PTR);
    uint32_t red = UNTOUCHED_U32, black = UNTOUCHED_U32, pile = UNTOUCHED_U32;
    EXPECT(buttonup_match_scores(NULL, &red, &black), NUL);
    EXPECT(buttonup_match_scores(game, NULL, &black), NUL);
    EXPECT(buttonup_match_scores(game, &red, NULL), NUL);
    TRUE(red == UNTOUCHED_U32 && black == UNTOUCHED_U32);
    EXPECT(buttonup_match_undo(NULL, &pile), NUL);
    EXPECT(buttonup_match_undo(game, &pile), BUTTONUP_STATUS_MATCH_ERROR);
    TRUE(pile == UNTOUCHED_U32);
    EXPECT(buttonup_match_play(NULL, 0, NULL), NUL);
    EXPECT(buttonup_match_play(game, UINT32_MAX, NULL), BUTTONUP_STATUS_ILLEGAL_MOVE);
    EXPECT(buttonup_match_state(NULL, NULL, NULL), NUL);
    EXPECT(buttonup_match_state(game, NULL, NULL), OK);
    EXPECT(buttonup_match_choose_starter(NULL, BUTTONUP_PLAYER_RED), NUL);
    EXPECT(buttonup_match_choose_starter(game, BUTTONUP_PLAYER_RED), BUTTONUP_STATUS_MATCH_ERROR);
    EXPECT(buttonup_match_choose_starter(game, 0), BAD);
    double chance = -1;
    EXPECT(buttonup_match_win_probability(NULL, &chance), NUL);
    EXPECT(buttonup_match_win_probability(game, NULL), NUL);
    TRUE(chance == -1);
    EXPECT(buttonup_match_win_probability(game, &chance), OK);
    TRUE(chance >= 0 && chance <= 1);

    /* Bots: bad levels, NULLs, then a whole match played by two of them. */
    ButtonupBot *bot = UNTOUCHED_PTR;
    EXPECT(buttonup_bot_new(0, 1, &bot), BAD);
    EXPECT(buttonup_bot_new(11, 1, &bot), BAD);
    EXPECT(buttonup_bot_new(UINT32_MAX, 1, &bot), BAD);
    EXPECT(buttonup_bot_new(5, 1, NULL), NUL);
    TRUE(bot == UNTOUCHED_PTR);
    /* Bots by rating: the levels' ratings rise from 1000; out of range or not a number
       is refused and touches nothing. */
    double rating = -1, previous = 0;
    EXPECT(buttonup_level_rating(0, &rating), BAD);
    EXPECT(buttonup_level_rating(11, &rating), BAD);
    EXPECT(buttonup_level_rating(1, NULL), NUL);
    TRUE(rating == -1);
    for (uint32_t level = 1; level <= 10; level++) {
        EXPECT(buttonup_level_rating(level, &rating), OK);
        TRUE(level == 1 ? rating == 1000.0 : rating > previous);
        previous = rating;
    }
    EXPECT(buttonup_bot_new_rated(999.0, 1, &bot), BAD);
    EXPECT(buttonup_bot_new_rated(previous + 1, 1, &bot), BAD);
    EXPECT(buttonup_bot_new_rated(NAN, 1, &bot), BAD);
    EXPECT(buttonup_bot_new_rated(INFINITY, 1, &bot), BAD);
    EXPECT(buttonup_bot_new_rated(1500.0, 1, NULL), NUL);
    TRUE(bot == UNTOUCHED_PTR);
    ButtonupBot *rated = NULL;
    EXPECT(buttonup_bot_new_rated(1500.0, 1, &rated), OK);
    buttonup_bot_free(rated);
    ButtonupBot *bots[2] = {NULL, NULL};
    EXPECT(buttonup_bot_new(10, UINT64_MAX, &bots[0]), OK);
    EXPECT(buttonup_bot_new(3, 0, &bots[1]), OK);
    EXPECT(buttonup_bot_stop(NULL), NUL);
    ButtonupPlayer starter = BUTTONUP_PLAYER_NONE;
    EXPECT(buttonup_bot_choose_starter(NULL, game, &starter), NUL);
    EXPECT(buttonup_bot_choose_starter(bots[0], NULL, &starter), NUL);
    EXPECT(buttonup_bot_choose_starter(bots[0], game, NULL), NUL);
    /* Asked before any choice is due, a bot still says whom it would name. */
    EXPECT(buttonup_bot_choose_starter(bots[0], game, &starter), OK);
    TRUE(starter == BUTTONUP_PLAYER_RED || starter == BUTTONUP_PLAYER_BLACK);

    ButtonupPlayer winner = BUTTONUP_PLAYER_NONE, chooser = BUTTONUP_PLAYER_NONE;
    for (int ply = 0; ply < 400 && winner == BUTTONUP_PLAYER_NONE; ply++) {
        EXPECT(buttonup_match_state(game, &winner, &chooser), OK);
        if (winner != BUTTONUP_PLAYER_NONE) break;
        ButtonupPosition *now = NULL;
        EXPECT(buttonup_match_position(game, &now), OK);
        ButtonupPlayer mover = BUTTONUP_PLAYER_NONE;
        EXPECT(buttonup_position_to_move(now, &mover), OK);
        ButtonupBot *who = bots[(chooser != BUTTONUP_PLAYER_NONE ? chooser : mover) - 1];
        if (chooser != BUTTONUP_PLAYER_NONE) {
            EXPECT(buttonup_bot_choose_starter(who, game, &starter), OK);
            EXPECT(buttonup_match_choose_starter(game, starter), OK);
        } else {
            EXPECT(buttonup_bot_choose(who, now, game, 0, NULL), NUL);
            EXPECT(buttonup_bot_choose(NULL, now, game, 0, &pile), NUL);
            EXPECT(buttonup_bot_choose(who, NULL, game, 0, &pile), NUL);
            EXPECT(buttonup_bot_choose(who, now, game, UINT64_MAX, &pile), OK);
            ButtonupMove outcome;
            EXPECT(buttonup_match_play(game, pile, &outcome), OK);
            TRUE(outcome.pile == pile && outcome.drop_count <= BUTTONUP_MAX_BUTTONS);
        }
        buttonup_position_free(now);
    }
    TRUE(winner != BUTTONUP_PLAYER_NONE);
    EXPECT(buttonup_match_play(game, 0, NULL), BUTTONUP_STATUS_ILLEGAL_MOVE);
    EXPECT(buttonup_match_scores(game, &red, &black), OK);
    TRUE(red >= 2 || black >= 2);

    /* Records: NULLs, then the record cut at every length. */
    char *record = UNTOUCHED_PTR;
    EXPECT(buttonup_match_record(NULL, &record), NUL);
    EXPECT(buttonup_match_record(game, NULL), NUL);
    TRUE(record == UNTOUCHED_PTR);
    EXPECT(buttonup_match_record(game, &record), OK);
    ButtonupMatch *read = UNTOUCHED_PTR;
    EXPECT(buttonup_match_from_record(NULL, &read), NUL);
    EXPECT(buttonup_match_from_record(record, NULL), NUL);
    EXPECT(buttonup_match_from_record("\xff[Event", &read), BUTTONUP_STATUS_RECORD_ERROR);
    EXPECT(buttonup_match_from_record("[Event", &read), BUTTONUP_STATUS_RECORD_ERROR);
    TRUE(read == UNTOUCHED_PTR);
    size_t length = strlen(record);
    char *cut = malloc(length + 1);
    for (size_t end = 0; end < length; end += 7) {
        memcpy(cut, record, end);
        cut[end] = '\0';
        ButtonupMatch *partial = NULL;
        ButtonupStatus status = buttonup_match_from_record(cut, &partial);
        TRUE(status == OK || status == BUTTONUP_STATUS_RECORD_ERROR);
        TRUE((status == OK) == (partial != NULL));
        buttonup_match_free(partial);
    }
    free(cut);
    EXPECT(buttonup_match_from_record(record, &read), OK);
    char *again = NULL;
    EXPECT(buttonup_match_record(read, &again), OK);
    TRUE(strcmp(record, again) == 0);
    buttonup_string_free(again);
    buttonup_string_free(record);
    buttonup_string_free(NULL);
    buttonup_match_free(read);

    buttonup_bot_free(bots[0]);
    buttonup_bot_free(bots[1]);
    buttonup_bot_free(NULL);
    buttonup_match_free(game);
    buttonup_match_free(NULL);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 1;
    TRUE(strcmp(buttonup_version(), "") != 0);
    for (int round = 0; round < rounds; round++) {
        positions();
        matches();
    }
    if (failures) {
        fprintf(stderr, "%d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("ok %d\n", checks);
    return 0;
}
