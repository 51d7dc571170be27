/* The C door of the error parity suite (tests/doors/test_parity_errors.py): reads one
 * scenario a line from stdin, "ID OP ARG...", every field hex-encoded (UTF-8 bytes) and
 * separated by a space, calls the C library, and prints "ID STATUS MESSAGE" (the message
 * of buttonup_last_error() hex-encoded; "-" when it is empty). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buttonup.h"

#define MAX_FIELDS 4
#define MAX_LINE 65536

static char fields[MAX_FIELDS][MAX_LINE];

static int hex(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

/* Splits and decodes `line` into `fields`; the number of fields, or -1. */
static int decode(const char *line) {
  int count = 0;
  size_t at = 0;
  while (line[at] != '\0' && line[at] != '\n') {
    if (count == MAX_FIELDS) return -1;
    size_t length = 0;
    while (line[at] != ' ' && line[at] != '\0' && line[at] != '\n') {
      int high = hex(line[at]), low = line[at + 1] ? hex(line[at + 1]) : -1;
      if (high < 0 || low < 0 || length + 1 >= MAX_LINE) return -1;
      fields[count][length++] = (char)(high * 16 + low);
      at += 2;
    }
    fields[count][length] = '\0';
    count++;
    if (line[at] == ' ') at++;
  }
  return count;
}

static ButtonupStatus position_op(const char *op, ButtonupPosition *position) {
  if (strcmp(op, "position") == 0) return BUTTONUP_STATUS_OK;
  if (strcmp(op, "play") == 0) {
    ButtonupPosition *next = NULL;
    ButtonupStatus status =
        buttonup_position_play(position, (uint32_t)strtoul(fields[3], NULL, 10), &next, NULL);
    buttonup_position_free(next);
    return status;
  }
  if (strcmp(op, "scoring") == 0) {
    ButtonupScoring scoring;
    return buttonup_position_scoring(position, &scoring);
  }
  if (strcmp(op, "choose") == 0) {
    ButtonupBot *bot = NULL;
    ButtonupStatus status = buttonup_bot_new(5, 0, &bot);
    uint32_t pile = 0;
    if (status == BUTTONUP_STATUS_OK) status = buttonup_bot_choose(bot, position, NULL, 0, &pile);
    buttonup_bot_free(bot);
    return status;
  }
  return BUTTONUP_STATUS_INTERNAL_ERROR;
}

static ButtonupStatus match_op(const char *op, ButtonupMatch *game) {
  if (strcmp(op, "choose_starter") == 0) {
    uint32_t starter = fields[3][0] == 'b' ? BUTTONUP_PLAYER_BLACK : BUTTONUP_PLAYER_RED;
    return buttonup_match_choose_starter(game, starter);
  }
  if (strcmp(op, "undo") == 0) return buttonup_match_undo(game, NULL);
  if (strcmp(op, "match_play") == 0) {
    return buttonup_match_play(game, (uint32_t)strtoul(fields[3], NULL, 10), NULL);
  }
  return BUTTONUP_STATUS_INTERNAL_ERROR;
}

static ButtonupStatus scenario(const char *op) {
  if (strcmp(op, "record") == 0) {
    ButtonupMatch *game = NULL;
    ButtonupStatus status = buttonup_match_from_record(fields[2], &game);
    buttonup_match_free(game);
    return status;
  }
  if (strcmp(op, "choose_starter") == 0 || strcmp(op, "undo") == 0 ||
      strcmp(op, "match_play") == 0) {
    ButtonupMatch *game = NULL;
    ButtonupStatus status = buttonup_match_new(BUTTONUP_PLAYER_RED, BUTTONUP_STANDARD_TARGET,
                                               BUTTONUP_STANDARD_PER_COLOUR,
                                               strtoull(fields[2], NULL, 10), &game);
    if (status == BUTTONUP_STATUS_OK) status = match_op(op, game);
    buttonup_match_free(game);
    return status;
  }
  ButtonupPosition *position = NULL;
  ButtonupStatus status = buttonup_position_parse(fields[2], &position);
  if (status == BUTTONUP_STATUS_OK) status = position_op(op, position);
  buttonup_position_free(position);
  return status;
}

int main(void) {
  static char line[MAX_FIELDS * MAX_LINE];
  while (fgets(line, sizeof line, stdin) != NULL) {
    int count = decode(line);
    if (count < 3) {
      fprintf(stderr, "parity_errors: a bad line\n");
      return 2;
    }
    ButtonupStatus status = scenario(fields[1]);
    const char *message = status == BUTTONUP_STATUS_OK ? "" : buttonup_last_error();
    printf("%s %d ", fields[0], (int)status);
    if (*message == '\0') printf("-");
    for (const unsigned char *at = (const unsigned char *)message; *at; at++) printf("%02x", *at);
    printf("\n");
  }
  return 0;
}
