/* Derivatives generated at link time (see link.h). */
#include "driver/link.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Linker.h>

#include "ad/request.h"
#include "analysis/memtype.h"
#include "driver/args.h"
#include "driver/clang.h"
#include "driver/embed.h"
#include "driver/exec.h"
#include "driver/link_inputs.h"
#include "driver/link_ir.h"
#include "driver/pipeline.h"
#include "ir/diag.h"


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
static bool with_line_tables(EmbeddedIR *ir, bool verbose) {
  StrList flags = {0};
  vec_push(&flags, "-working-directory");
  vec_push(&flags, ir->cwd);
  to_strlist(&ir->frontend, &flags);
  char *bc = exec_temp_path(ir->source, ".lines.bc");
  bool ok = clang_frontend(&flags, ir->source, ir->language, bc, NULL, FRONTEND_AGAIN_WITH_LINES, verbose) == 0;
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
      free(ir->bitcode);
      ir->bitcode = data;
      ir->bitcode_len = (size_t)n;
      ir->line_info = true;
    } else {
      free(data);
    }
  }
  free(bc);
  return ok;
}

/* An object whose IR and code disagree on names (changed after compiling, link_ir_stale) is linked as
 * plain code, with a warning: a derivative that needs its functions is then refused, rather than made of
 * code the program does not run. Its own requests cannot be made: false, with the error said, when it has
 * some. */
static bool drop_stale_ir(LinkView *v) {
  LLVMContextRef ctx = LLVMContextCreate();
  bool ok = true;
  for (size_t k = 0; k < v->units.len; k++) {
    LinkUnit *u = &v->units.data[k];
    const char *missing = NULL;
    bool reference = false, requests = false;
    for (size_t i = 0; link_unit_merged(u) && i < u->ir.len && !missing; i++) {
      LLVMModuleRef m = parse(ctx, &u->ir.data[i]);
      if (m && (missing = link_ir_stale(v, u, m, &reference))) {
        for (size_t j = 0; j < u->ir.len; j++) requests |= u->ir.data[j].deferred;
        fprintf(stderr, "parad-cc: %s: %s %s '%s', which the IR it carries %s (was it changed after compiling, by objcopy?): %s\n",
                requests ? "error" : "warning", u->origin, reference ? "uses" : "defines no", missing,
                reference ? "never names" : "defines",
                requests ? "the derivatives it asks for cannot be made" : "its derivatives cannot be made, and it is linked as plain code");
      }
      if (m) LLVMDisposeModule(m);
    }
    if (!missing) continue;
    ok &= !requests;
    for (size_t i = 0; i < u->ir.len; i++) embed_free(&u->ir.data[i]);
    vec_free(&u->ir);
  }
  LLVMContextDispose(ctx);
  return ok;
}

/* Merges the IR of the units ld takes, as ld resolves their symbols, into one module written to path;
 * false on failure. */
static bool merge(const LinkView *v, const char *path) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef all = NULL;
  bool ok = true;
  for (size_t k = 0; k < v->units.len && ok; k++) {
    const LinkUnit *u = &v->units.data[k];
    for (size_t i = 0; link_unit_merged(u) && i < u->ir.len && ok; i++) {
      LLVMModuleRef m = parse(ctx, &u->ir.data[i]);
      if (!m) {
        ok = false;
        break;
      }
      request_weaken_markers(m); /* every file may define them */
      link_ir_prepare(v, u, m);
      const OwnedList *flags = &u->ir.data[i].frontend;
      if (args_loose_aliasing((const char *const *)flags->data, flags->len)) memtype_mark_loose_aliasing(m);
      if (!all) all = m;
      else if (LLVMLinkModules2(all, m)) {
        fprintf(stderr, "parad-cc: error: cannot merge the IR of %s with the program's (see the message above)\n", u->ir.data[i].origin);
        ok = false;
      }
    }
  }
  if (ok && all) link_ir_finish(v, all);
  if (ok && all && LLVMWriteBitcodeToFile(all, path)) ok = false;
  if (all) LLVMDisposeModule(all);
  LLVMContextDispose(ctx);
  return ok && all;
}

/* An archive under --whole-archive at line position i: the linker takes all its members, those whose
 * code the program's object holds too, which then were defined twice. A copy of the archive without them
 * (ar d) takes its place; the entry as it was where none was merged. */
static const char *without_merged_members(const LinkView *v, size_t i, const char *entry, bool verbose) {
  StrList cmd = {0};
  const char *copy = NULL; /* the exec module's: on the line until the link */
  for (size_t k = 0; k < v->units.len; k++) {
    const LinkUnit *m = &v->units.data[k];
    const char *open = m->whole && link_unit_merged(m) && m->position == i ? strrchr(m->origin, '(') : NULL;
    if (!open) continue;
    if (!copy) {
      char *path = xasprintf("%.*s", (int)(open - m->origin), m->origin);
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

/* Whether some merged file was compiled with -g (the last -g flag decides): the program's object then
 * keeps the debug info (it was stripped, and a debugger lost the lines of every file merged). */
static bool asked_for_debug_info(const LinkView *v) {
  for (size_t k = 0; k < v->units.len; k++)
    for (size_t i = 0; link_unit_merged(&v->units.data[k]) && i < v->units.data[k].ir.len; i++) {
      const OwnedList *flags = &v->units.data[k].ir.data[i].frontend;
      bool debug = false;
      for (size_t f = 0; f < flags->len; f++)
        if (flags->data[f][0] == '-' && flags->data[f][1] == 'g') debug = strcmp(flags->data[f], "-g0") != 0;
      if (debug) return true;
    }
  return false;
}

/* The first IR whose requests wait for the link, or NULL. */
static const EmbeddedIR *first_deferred(const LinkView *v) {
  for (size_t k = 0; k < v->units.len; k++)
    for (size_t i = 0; i < v->units.data[k].ir.len; i++)
      if (v->units.data[k].ir.data[i].deferred) return &v->units.data[k].ir.data[i];
  return NULL;
}

int link_time_derivatives(const Invocation *inv, StrList *line) {
  LinkView v = {0};
  link_view_read(line, &v);
  const EmbeddedIR *first = first_deferred(&v);
  int rc = 0;
  if (!first) goto done;
  link_view_resolve(&v);
  if (!drop_stale_ir(&v)) {
    rc = 1;
    goto done;
  }
  if (!(first = first_deferred(&v))) goto done; /* (ld then says what is undefined, and why) */
  if (v.twice && link_unit_merged(&v.units.data[v.twice_in[0]]) && link_unit_merged(&v.units.data[v.twice_in[1]])) {
    /* as ld would say it (merging the two said it in LLVM's words) */
    fprintf(stderr, "parad-cc: error: multiple definition of '%s': in %s and in %s\n", v.twice,
            v.units.data[v.twice_in[0]].origin, v.units.data[v.twice_in[1]].origin);
    rc = 1;
    goto done;
  }
  /* the whole program's derivatives, with the options of the first file that asked for them */
  char *program = exec_temp_path("program", ".bc"), *opt = exec_temp_path("program", ".opt.bc");
  const char *object = exec_temp_path_kept("program", ".o"); /* on the line until the link */
  PipelineOptions po = {.opt = first->opt, .keep_debug = asked_for_debug_info(&v), .vectorize = first->vectorize, .slp_vectorize = first->slp_vectorize,
                        .unroll = first->unroll, .verbose = inv->verbose, .source_name = "(the program)", .has_line_info = true};
  bool located = true;
  for (size_t k = 0; k < v.units.len; k++)
    for (size_t i = 0; link_unit_merged(&v.units.data[k]) && i < v.units.data[k].ir.len; i++) located &= v.units.data[k].ir.data[i].line_info;
  /* Files without requests were compiled without line tables. Their diagnostics are held back: when
     there are some, the front end runs again on those files, and the diagnostics come from that run,
     with file:line. */
  diag_capture_begin(false);
  rc = merge(&v, program) ? pipeline_run(program, opt, &po) : PIPELINE_FAILED;
  char *held = diag_capture_end();
  if (rc == PIPELINE_REFUSED && !located) {
    for (size_t k = 0; k < v.units.len; k++)
      for (size_t i = 0; link_unit_merged(&v.units.data[k]) && i < v.units.data[k].ir.len; i++)
        if (!v.units.data[k].ir.data[i].line_info) with_line_tables(&v.units.data[k].ir.data[i], inv->verbose);
    rc = merge(&v, program) ? pipeline_run(program, opt, &po) : PIPELINE_FAILED;
  } else {
    fputs(held, stderr);
  }
  free(held);
  if (rc == PIPELINE_REFUSED) link_view_note_untaken(&v);
  if (rc == PIPELINE_OK) {
    StrList codegen = {0};
    to_strlist(&first->codegen, &codegen);
    rc = clang_codegen(&codegen, "-c", false, opt, object, true, po.optimised_derivatives, inv->verbose);
    vec_free(&codegen);
  }
  if (rc == PIPELINE_OK) {
    /* The object goes where the first merged unit was (an archive's place, for a member), so that no
       archive before it gives ld a member whose code the object holds too (with -u g before the archive:
       "multiple definition"); the merged objects go. */
    size_t at = line->len;
    for (size_t k = 0; k < v.units.len; k++)
      if (link_unit_merged(&v.units.data[k]) && v.units.data[k].position < at) at = v.units.data[k].position;
    StrList out = {0};
    for (size_t i = 0; i < line->len; i++) {
      bool replaced = false;
      for (size_t k = 0; k < v.units.len && !replaced; k++) replaced = link_unit_merged(&v.units.data[k]) && !v.units.data[k].member && v.units.data[k].position == i;
      if (i == at) vec_push(&out, object);
      if (!replaced) vec_push(&out, without_merged_members(&v, i, line->data[i], inv->verbose));
    }
    vec_free(line);
    *line = out;
  }
  free(program);
  free(opt);
done:
  link_view_free(&v);
  return rc ? 1 : 0;
}
