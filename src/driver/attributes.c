/* Enzyme's attributes: the macros for the honoured spellings, and the check for the others (see
 * attributes.h). */
#include "driver/attributes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The honoured spellings, as clang annotations ad/registered.c knows. */
static const char *const definitions[] = {
    "-Denzyme_inactive=annotate(\"enzyme_inactive\")",
    "-Denzyme_function_like(name)=annotate(\"enzyme_function_like=\" name)",
    "-Denzyme_allocator(index)=annotate(\"enzyme_allocator=\" #index)",
    "-Denzyme_deallocator(index)=annotate(\"enzyme_deallocator=\" #index)",
};

/* Enzyme's attributes that only tune how a derivative is computed, never its value: dropped, they lose
 * nothing Parad would use. */
static const char *const hints[] = {
    "enzyme_nofree", "enzyme_shouldrecompute", "enzyme_sparse_accumulate", "enzyme_elementwise_read",
    "enzyme_notypeanalysis", "enzyme_checkpoint", "enzyme_checkpointing_enable",
};

void attributes_define(StrList *cmd) {
  for (size_t i = 0; i < sizeof definitions / sizeof definitions[0]; i++) vec_push(cmd, definitions[i]);
}

/* A copy of s without terminal colour sequences (ESC [ ... letter), which clang adds on a terminal. */
static char *without_colours(const char *s) {
  char *out = xmalloc(strlen(s) + 1), *o = out;
  while (*s) {
    if (*s == '\033' && s[1] == '[') {
      s += 2;
      while (*s && !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) s++;
      if (*s) s++;
      continue;
    }
    *o++ = *s++;
  }
  *o = 0;
  return out;
}

static bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == ':';
}

/* The source text of a snippet line ("    3 | text", or the text alone without line numbers). */
static const char *snippet_text(const char *line) {
  const char *bar = strstr(line, " | ");
  return bar ? bar + 3 : line;
}

/* What the attribute was written as: the word the caret line points at in the snippet line (clang shows
 * `[[enzyme::inactive]]` as unknown attribute 'inactive', and a macro's expansion by the macro's name),
 * else the name clang gives. */
static void written_as(const char *name, const char *snippet, const char *caret, char *out, size_t n) {
  snprintf(out, n, "%s", name);
  if (!snippet || !caret) return;
  const char *text = snippet_text(snippet), *marks = snippet_text(caret), *at = strchr(marks, '^');
  if (!at || (size_t)(at - marks) >= strlen(text)) return;
  const char *w = text + (at - marks);
  size_t len = 0;
  while (word_char(w[len]) && w[len] != '\n') len++;
  if (len) snprintf(out, n, "%.*s", (int)len, w);
}

/* "enzyme::inactive" and "__enzyme_inactive__" as "enzyme_inactive"; empty when not Enzyme's. */
static void normalise(const char *w, char *out, size_t n) {
  out[0] = 0;
  while (*w == '_') w++;
  if (strncmp(w, "enzyme", 6) || (w[6] != '_' && w[6] != ':')) return;
  snprintf(out, n, "enzyme_%s", w + 6 + (w[6] == ':' ? 2 : 1));
  size_t len = strlen(out);
  while (len && out[len - 1] == '_') out[--len] = 0;
}

int attributes_check(const char *messages) {
  static const char pattern[] = "warning: unknown attribute '";
  char *text = without_colours(messages);
  VEC(char *) lines = {0};
  for (char *line = text; line; ) {
    char *next = strchr(line, '\n');
    if (next) *next++ = 0;
    vec_push(&lines, line);
    line = next && *next ? next : NULL;
  }
  int errors = 0;
  for (size_t i = 0; i < lines.len; i++) {
    char *line = lines.data[i], *w = strstr(line, pattern);
    if (!w) continue;
    char name[256], written[256], enzyme[256];
    const char *start = w + strlen(pattern), *end = strchr(start, '\'');
    snprintf(name, sizeof name, "%.*s", end ? (int)(end - start) : 0, start);
    /* clang shows the source line, then a caret line under the attribute (unless told not to) */
    bool shown = i + 2 < lines.len && strchr(lines.data[i + 2], '^');
    written_as(name, shown ? lines.data[i + 1] : NULL, shown ? lines.data[i + 2] : NULL, written, sizeof written);
    normalise(written, enzyme, sizeof enzyme);
    bool hint = false;
    for (size_t h = 0; h < sizeof hints / sizeof hints[0]; h++) hint |= !strcmp(enzyme, hints[h]);
    if (!*enzyme || hint) continue;
    /* at the location clang gave: what precedes ": warning:" */
    fprintf(stderr, "%.*s: error: parad-cc cannot honour the attribute '%s' (clang drops it, and the derivative "
                    "would differ from Enzyme's); Parad honours __attribute__((enzyme_inactive)), "
                    "enzyme_function_like(\"name\"), enzyme_allocator(i) and enzyme_deallocator(i), and the "
                    "registrations __enzyme_inactivefn, __enzyme_inactive_global, __enzyme_function_like and "
                    "__enzyme_allocation_like\n",
            (int)(w - line > 2 ? w - line - 2 : 0), line, written);
    errors++;
  }
  vec_free(&lines);
  free(text);
  return errors;
}
