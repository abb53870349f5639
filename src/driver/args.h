/* The command line of parad-cc: the flags users give cc, sorted into what each step needs.
 *
 * parad-cc runs up to three clang steps per program: the front end (C to IR), code generation (IR to
 * object), and the link. Each flag goes to the steps it concerns; source files are replaced, in place,
 * by the objects parad-cc makes of them, so that the order of objects and libraries is kept. */
#ifndef PARAD_DRIVER_ARGS_H
#define PARAD_DRIVER_ARGS_H

#include <stdbool.h>

#include "ir/util.h"

typedef VEC(const char *) StrList;

typedef enum {
  ACTION_LINK,        /* sources -> executable (or -shared library) */
  ACTION_COMPILE,     /* -c: sources -> objects */
  ACTION_ASSEMBLY,    /* -S: sources -> assembly */
  ACTION_PASSTHROUGH, /* nothing to compile or link: -E, -M, --version, ...: clang does it all */
} Action;

typedef struct {
  Action action;
  bool emit_llvm;      /* with -c / -S: write the (differentiated, optimised) IR instead */
  bool debug;          /* the user asked for debug info (-g...) */
  bool verbose;        /* -v: echo the commands run */
  char opt;            /* '0', '1', '2', '3', 's', 'z' */
  bool fast_math;      /* -Ofast */
  bool no_vectorize, no_slp_vectorize, no_unroll;
  const char *output;  /* -o, or NULL */
  StrList sources;     /* C sources (and .ll/.bc) that go through the pipeline */
  StrList languages;   /* per source: the language -x gave it, or NULL (told by its name) */
  StrList frontend;    /* flags for the front end */
  StrList codegen;     /* flags for code generation from IR */
  StrList link;        /* the link line: flags, objects, libraries, and one slot per source (NULL) */
  StrList all;         /* every argument as given, for the pass-through */
  VEC(char *) owned;   /* the arguments read from response files (@file) */
} Invocation;

/* Parses argv (without argv[0]), with the arguments of response files (@file, as build systems write
 * long command lines) in their places. Returns false, with a message on stderr, on a malformed command
 * line. */
bool args_parse(int argc, char **argv, Invocation *inv);
/* Whether front-end flags turn C's type-based aliasing rule off (the last of -fno-strict-aliasing and
 * -fstrict-aliasing). */
bool args_loose_aliasing(const char *const *flags, size_t n);
void args_free(Invocation *inv);
/* The words of response file path, as GCC and clang read them (allocated: the caller frees them); false
 * when it cannot be read. */
bool args_response_words(const char *path, StrList *words);

#endif
