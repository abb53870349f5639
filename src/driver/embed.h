/* The IR an object file carries beside its code, for derivatives generated at link time.
 *
 * Every object parad-cc compiles (-c) carries, in a section .parad.ir that the linker drops
 * (SHF_EXCLUDE), the front end's IR of its source and how it was compiled: the source and the directory
 * it was compiled in, the front end's and code generation's flags, the optimisation level, and whether
 * it asks for derivatives that need other files (deferred). Its code is what it would be without the
 * section. A static archive of such objects (ar) carries theirs in its members. */
#ifndef PARAD_DRIVER_EMBED_H
#define PARAD_DRIVER_EMBED_H

#include <stdbool.h>
#include <stddef.h>

#include "driver/args.h"

typedef VEC(char *) OwnedList;

typedef struct {
  bool requests;       /* asks for derivatives */
  bool deferred;       /* ... that reach other files: generated at link time */
  bool line_info;      /* the IR has line tables (for diagnostics) */
  char opt;            /* '0' .. '3', 's', 'z' */
  bool vectorize, slp_vectorize, unroll;
  char *cwd, *source, *language; /* language: "" when told by the source's name */
  OwnedList frontend, codegen;
  char *bitcode;
  size_t bitcode_len;
  char *origin;        /* for messages: "dir/file.o" or "libx.a(member.o)" */
  bool member;         /* read from a member of a static archive */
} EmbeddedIR;

typedef VEC(EmbeddedIR) EmbeddedList;

/* Adds ir to an object file (llvm-objcopy). Returns 0, or non-zero with a message. */
int embed_into_object(const char *object, const EmbeddedIR *ir, bool verbose);
/* Appends the IR an object file in memory carries (several where ld -r joined objects); origin names it
 * in messages, member says it is an archive's. Files that carry none (plain clang objects, shared
 * libraries, scripts) add nothing. Archives: link_inputs.h. */
void embed_read_object(const char *data, size_t size, const char *origin, bool member, EmbeddedList *out);
void embed_free(EmbeddedIR *ir);

#endif
