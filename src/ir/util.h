/* Small C helpers every part of the tool uses: allocation that never returns NULL, growable arrays,
 * growable strings. */
#ifndef PARAD_IR_UTIL_H
#define PARAD_IR_UTIL_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable array of T: VEC(int) v = {0}; vec_push(&v, 3); ... free(v.data); */
#define VEC(T) struct { T *data; size_t len, cap; }
#define vec_push(v, x)                                                                   \
  do {                                                                                   \
    if ((v)->len == (v)->cap) {                                                          \
      (v)->cap = (v)->cap ? 2 * (v)->cap : 8;                                            \
      (v)->data = xrealloc((v)->data, (v)->cap * sizeof *(v)->data);                     \
    }                                                                                    \
    (v)->data[(v)->len++] = (x);                                                         \
  } while (0)
#define vec_free(v) (free((v)->data), (v)->data = NULL, (v)->len = (v)->cap = 0)

/* A growable, always NUL-terminated string. */
typedef struct {
  char *s;
  size_t len, cap;
} StrBuf;

void sb_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap);
void sb_free(StrBuf *b);

#endif
