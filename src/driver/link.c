/* Derivatives generated at link time (see link.h). */
#include "driver/link.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Linker.h>

#include "ad/request.h"
#include "driver/clang.h"
#include "driver/embed.h"
#include "driver/exec.h"
#include "driver/pipeline.h"
#include "ir/diag.h"

/* One input of the link that carries IR: an object on the line, or a member of an archive on it. */
typedef struct {
  EmbeddedIR ir;
  size_t position;   /* its index in the link line */
  bool member;       /* of an archive: linked only if the program needs it */
  bool whole;        /* of an archive under --whole-archive: linked whatever the program needs */
  bool chosen;
  LLVMModuleRef mod; /* parsed, until merged */
} Input;

typedef VEC(Input) InputList;

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* The static archive -lname stands for, when the linker would take one: the first directory (-L ones,
 * then the usual ones) that has libname.so or libname.a decides, and only an .a has IR. */
static char *archive_of(const StrList *line, const char *name, bool is_static) {
  static const char *const system_dirs[] = {"/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib", "/lib", NULL};
  StrList dirs = {0};
  for (size_t i = 0; i < line->len; i++) {
    const char *a = line->data[i];
    if (!strcmp(a, "-L") && i + 1 < line->len) vec_push(&dirs, line->data[++i]);
    else if (!strncmp(a, "-L", 2) && a[2]) vec_push(&dirs, a + 2);
  }
  for (const char *const *d = system_dirs; *d; d++) vec_push(&dirs, *d);
  char *found = NULL;
  for (size_t i = 0; i < dirs.len && !found; i++) {
    char *so = xasprintf("%s/lib%s.so", dirs.data[i], name), *a = xasprintf("%s/lib%s.a", dirs.data[i], name);
    if (!is_static && access(so, R_OK) == 0) {
      free(a);
      free(so);
      break;
    }
    if (access(a, R_OK) == 0) found = a;
    else free(a);
    free(so);
  }
  vec_free(&dirs);
  return found;
}

/* The inputs of the line that carry IR. */
static void collect(const StrList *line, InputList *inputs) {
  bool is_static = false;
  for (size_t i = 0; i < line->len; i++) is_static |= !strcmp(line->data[i], "-static");
  bool whole = false;
  for (size_t i = 0; i < line->len; i++) {
    const char *a = line->data[i];
    char *path = NULL;
    if (strstr(a, "-Wl,") == a && strstr(a, "whole-archive")) whole = !strstr(a, "no-whole-archive");
    if (!strcmp(a, "-l") && i + 1 < line->len) path = archive_of(line, line->data[++i], is_static);
    else if (!strncmp(a, "-l", 2) && a[2]) path = archive_of(line, a + 2, is_static);
    else if (a[0] != '-' && !ends_with(a, ".so") && !strstr(a, ".so.")) path = xstrdup(a); /* objects, archives */
    else if (!strcmp(a, "-L") || !strcmp(a, "-o") || !strcmp(a, "-Xlinker") || !strcmp(a, "-T")) i++; /* and their values */
    if (!path) continue;
    EmbeddedList found = {0};
    embed_read_file(path, &found);
    for (size_t k = 0; k < found.len; k++) {
      bool all = whole && found.data[k].member; /* the linker takes every member */
      Input in = {found.data[k], i, found.data[k].member, all, !found.data[k].member || all, NULL};
      vec_push(inputs, in);
    }
    vec_free(&found);
    free(path);
  }
}

/* ---- which archive members the program takes: as the linker does, those that define a symbol the
 * chosen ones use and nothing chosen defines ---- */

static bool defines(LLVMModuleRef m, const char *name) {
  LLVMValueRef f = LLVMGetNamedFunction(m, name);
  if (f && !LLVMIsDeclaration(f) && LLVMGetLinkage(f) != LLVMInternalLinkage && LLVMGetLinkage(f) != LLVMPrivateLinkage) return true;
  LLVMValueRef g = LLVMGetNamedGlobal(m, name);
  return g && LLVMGetInitializer(g) && LLVMGetLinkage(g) != LLVMInternalLinkage && LLVMGetLinkage(g) != LLVMPrivateLinkage;
}

static bool chosen_define(InputList *in, const char *name) {
  for (size_t i = 0; i < in->len; i++)
    if (in->data[i].chosen && defines(in->data[i].mod, name)) return true;
  return false;
}

/* Whether member m defines something the chosen inputs use and do not define. */
static bool needed(InputList *in, LLVMModuleRef m) {
  for (size_t i = 0; i < in->len; i++) {
    if (!in->data[i].chosen) continue;
    LLVMModuleRef c = in->data[i].mod;
    for (LLVMValueRef f = LLVMGetFirstFunction(c); f; f = LLVMGetNextFunction(f))
      if (LLVMIsDeclaration(f) && defines(m, LLVMGetValueName(f)) && !chosen_define(in, LLVMGetValueName(f))) return true;
    for (LLVMValueRef g = LLVMGetFirstGlobal(c); g; g = LLVMGetNextGlobal(g))
      if (!LLVMGetInitializer(g) && defines(m, LLVMGetValueName(g)) && !chosen_define(in, LLVMGetValueName(g))) return true;
  }
  return false;
}

static void choose_members(InputList *in) {
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < in->len; i++)
      if (!in->data[i].chosen && needed(in, in->data[i].mod)) in->data[i].chosen = changed = true;
  }
}

/* ---- the merged module ---- */

static LLVMModuleRef parse(LLVMContextRef ctx, const EmbeddedIR *ir) {
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(ir->bitcode, ir->bitcode_len, ir->origin, 0);
  LLVMModuleRef m = NULL;
  if (LLVMParseBitcodeInContext2(ctx, buf, &m)) {
    fprintf(stderr, "parad-cc: error: cannot read the IR %s carries\n", ir->origin);
    m = NULL;
  }
  LLVMDisposeMemoryBuffer(buf);
  return m;
}

static void to_strlist(const OwnedList *from, StrList *to) {
  for (size_t i = 0; i < from->len; i++) vec_push(to, from->data[i]);
}

/* The front end again, with line tables, for an input compiled without them (a file without requests
 * of its own): a diagnostic in it then says file:line. False when its source is gone. */
static bool with_line_tables(Input *in, bool verbose) {
  StrList flags = {0};
  vec_push(&flags, "-working-directory");
  vec_push(&flags, in->ir.cwd);
  to_strlist(&in->ir.frontend, &flags);
  char *bc = exec_temp_path(in->ir.source, ".lines.bc");
  bool ok = clang_frontend(&flags, in->ir.source, in->ir.language, bc, NULL, true, verbose) == 0;
  vec_free(&flags);
  FILE *f = ok ? fopen(bc, "rb") : NULL;
  if (f) {
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = xmalloc((size_t)(n > 0 ? n : 1));
    ok = n > 0 && fread(data, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    if (ok) {
      free(in->ir.bitcode);
      in->ir.bitcode = data;
      in->ir.bitcode_len = (size_t)n;
      in->ir.line_info = true;
    } else {
      free(data);
    }
  }
  free(bc);
  return ok;
}

/* Merges the chosen inputs into one module written to path; false on failure. */
static bool merge(InputList *in, const char *path) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef all = NULL;
  bool ok = true;
  for (size_t i = 0; i < in->len && ok; i++) {
    if (!in->data[i].chosen) continue;
    LLVMModuleRef m = parse(ctx, &in->data[i].ir);
    if (!m) {
      ok = false;
      break;
    }
    request_weaken_markers(m); /* every file may define them */
    if (!all) all = m;
    else if (LLVMLinkModules2(all, m)) {
      fprintf(stderr, "parad-cc: error: cannot merge the IR of %s with the program's (see the message above)\n", in->data[i].ir.origin);
      ok = false;
    }
  }
  if (ok && all && LLVMWriteBitcodeToFile(all, path)) ok = false;
  if (all) LLVMDisposeModule(all);
  LLVMContextDispose(ctx);
  return ok && all;
}

/* The inputs' modules, parsed once for choosing the archive members. */
static bool parse_all(InputList *in, LLVMContextRef ctx) {
  for (size_t i = 0; i < in->len; i++)
    if (!(in->data[i].mod = parse(ctx, &in->data[i].ir))) return false;
  return true;
}

/* An archive under --whole-archive at line position i: the linker takes all its members, those whose
 * code the program's object holds too, which then were defined twice. A copy of the archive without them
 * (ar d) takes its place; the entry as it was where none was merged. */
static const char *without_merged_members(const InputList *in, size_t i, const char *entry, bool verbose) {
  StrList cmd = {0};
  const char *copy = NULL; /* the exec module's: on the line until the link */
  for (size_t k = 0; k < in->len; k++) {
    const Input *m = &in->data[k];
    const char *open = m->whole && m->chosen && m->position == i ? strrchr(m->ir.origin, '(') : NULL;
    if (!open) continue;
    if (!copy) {
      char *path = xasprintf("%.*s", (int)(open - m->ir.origin), m->ir.origin);
      copy = exec_temp_path_kept("whole", ".a");
      FILE *from = fopen(path, "rb");
      if (!exec_copy_stream(from, from ? fopen(copy, "wb") : NULL)) copy = NULL;
      if (from) fclose(from);
      free(path);
      if (!copy) break;
      vec_push(&cmd, "ar");
      vec_push(&cmd, "d");
      vec_push(&cmd, copy);
    }
    vec_push(&cmd, xasprintf("%.*s", (int)strlen(open + 1) - 1, open + 1)); /* the member's name, "(name)" */
  }
  int rc = copy ? exec_run(&cmd, verbose) : 1;
  for (size_t k = 3; k < cmd.len; k++) free((char *)cmd.data[k]);
  vec_free(&cmd);
  return rc ? entry : copy; /* (on failure the link says what is defined twice) */
}

int link_time_derivatives(const Invocation *inv, StrList *line) {
  InputList in = {0};
  collect(line, &in);
  const EmbeddedIR *first = NULL;
  for (size_t i = 0; i < in.len && !first; i++)
    if (in.data[i].ir.deferred) first = &in.data[i].ir;
  int rc = 0;
  if (!first) goto done;
  LLVMContextRef ctx = LLVMContextCreate();
  if (!parse_all(&in, ctx)) rc = 1;
  else choose_members(&in);
  for (size_t i = 0; i < in.len; i++) in.data[i].mod = NULL;
  LLVMContextDispose(ctx);
  if (rc) goto done;
  /* the whole program's derivatives, with the options of the first file that asked for them */
  char *merged = exec_temp_path("program", ".bc"), *opt = exec_temp_path("program", ".opt.bc");
  const char *object = exec_temp_path_kept("program", ".o"); /* on the line until the link */
  PipelineOptions po = {.opt = first->opt, .keep_debug = false, .vectorize = first->vectorize, .slp_vectorize = first->slp_vectorize,
                        .unroll = first->unroll, .verbose = inv->verbose, .source_name = "(the program)", .has_line_info = true};
  bool located = true;
  for (size_t i = 0; i < in.len; i++) located &= !in.data[i].chosen || in.data[i].ir.line_info;
  /* Files without requests were compiled without line tables. Their diagnostics are held back: when
     there are some, the front end runs again on those files, and the diagnostics come from that run,
     with file:line. */
  diag_capture_begin(false);
  rc = merge(&in, merged) ? pipeline_run(merged, opt, &po) : PIPELINE_FAILED;
  char *held = diag_capture_end();
  if (rc == PIPELINE_REFUSED && !located) {
    for (size_t i = 0; i < in.len; i++)
      if (in.data[i].chosen && !in.data[i].ir.line_info) with_line_tables(&in.data[i], inv->verbose);
    rc = merge(&in, merged) ? pipeline_run(merged, opt, &po) : PIPELINE_FAILED;
  } else {
    fputs(held, stderr);
  }
  free(held);
  if (rc == PIPELINE_OK) {
    StrList codegen = {0};
    to_strlist(&first->codegen, &codegen);
    rc = clang_codegen(&codegen, "-c", false, opt, object, true, po.optimised_derivatives, inv->verbose);
    vec_free(&codegen);
  }
  if (rc == PIPELINE_OK) { /* the object takes the place of the first input with IR; the others go */
    StrList out = {0};
    bool placed = false;
    for (size_t i = 0; i < line->len; i++) {
      bool replaced = false;
      for (size_t k = 0; k < in.len && !replaced; k++) replaced = in.data[k].chosen && !in.data[k].member && in.data[k].position == i;
      if (replaced && !placed) {
        vec_push(&out, object);
        placed = true;
      }
      if (!replaced) vec_push(&out, without_merged_members(&in, i, line->data[i], inv->verbose));
    }
    if (!placed) { /* only archive members: before every input, so that the archives are not taken */
      StrList front = {0};
      vec_push(&front, object);
      for (size_t i = 0; i < out.len; i++) vec_push(&front, out.data[i]);
      vec_free(&out);
      out = front;
    }
    vec_free(line);
    *line = out;
  }
  free(merged);
  free(opt);
done:
  for (size_t i = 0; i < in.len; i++) embed_free(&in.data[i].ir);
  vec_free(&in);
  return rc ? 1 : 0;
}
