/* The tapes of a build without the choice between a function and its `noalias` copy (PARAD_NO_APART=1),
 * which a test of ad/apart.c ran first, its output given as the test's argument: each line "tape of NAME:
 * N bytes". */
#ifndef PARAD_TEST_TAPE_AS_WRITTEN_H
#define PARAD_TEST_TAPE_AS_WRITTEN_H
#include <stdio.h>

/* The tape of case `name` in that output (0 where it has none). */
static size_t tape_as_written(FILE *before, const char *name) {
  char line[256], want[128];
  size_t written = 0;
  snprintf(want, sizeof want, "tape of %s: %%zu bytes", name);
  rewind(before);
  while (fgets(line, sizeof line, before))
    if (sscanf(line, want, &written) == 1) break;
  return written;
}
#endif
