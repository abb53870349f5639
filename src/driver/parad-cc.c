/* parad-cc: a C compiler driver that differentiates.
 *
 * Use it where you would use cc. For each C source it runs
 *     clang -emit-llvm (front end only)  ->  Parad + LLVM's optimiser (in process)  ->  clang (code generation)
 * and then links with clang. Everything it does not need to see (preprocessing, linking only, queries
 * such as --version) goes straight to clang. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver/args.h"
#include "driver/exec.h"
#include "driver/pipeline.h"

static void push_all(StrList *to, const StrList *from) {
  for (size_t i = 0; i < from->len; i++) vec_push(to, from->data[i]);
}

static bool has_flag(const StrList *l, const char *prefix) {
  for (size_t i = 0; i < l->len; i++)
    if (l->data[i] && !strncmp(l->data[i], prefix, strlen(prefix))) return true;
  return false;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* "dir/name.c" -> "name<ext>", in the current directory, as cc names its outputs. */
static char *default_output(const char *source, const char *ext) {
  const char *base = strrchr(source, '/');
  base = base ? base + 1 : source;
  const char *dot = strrchr(base, '.');
  size_t n = dot ? (size_t)(dot - base) : strlen(base);
  return xasprintf("%.*s%s", (int)n, base, ext);
}

static char *replace_ext(const char *path, const char *ext) {
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
  return xasprintf("%.*s%s", (int)n, path, ext);
}

static int frontend(const Invocation *inv, const char *source, const char *language, const char *bc,
                    const char *final, bool line_tables) {
  StrList cmd = {0};
  vec_push(&cmd, exec_clang());
  vec_push(&cmd, "-c");
  vec_push(&cmd, "-emit-llvm");
  vec_push(&cmd, "-Xclang");
  vec_push(&cmd, "-disable-llvm-passes");
  /* keep the order of use lists through the bitcode file: code generation depends on it, and without
   * derivatives the object must be the one clang makes */
  vec_push(&cmd, "-Xclang");
  vec_push(&cmd, "-emit-llvm-uselists");
  push_all(&cmd, &inv->frontend);
  char *include = xasprintf("%s/include", exec_parad_root());
  vec_push(&cmd, "-idirafter"); /* parad.h, after the user's own headers */
  vec_push(&cmd, include);
  /* line tables, so that refusals can say file:line; removed again unless the user asked for -g. This
   * is the second run of the front end on the file: its warnings have been shown once already. */
  if (line_tables) {
    vec_push(&cmd, "-gline-tables-only");
    vec_push(&cmd, "-w");
  }
  char *dep = NULL;
  if (has_flag(&inv->frontend, "-MD") || has_flag(&inv->frontend, "-MMD")) {
    /* the dependency file describes the user's output, not our intermediate file */
    if (!has_flag(&inv->frontend, "-MF")) {
      dep = replace_ext(final, ".d");
      vec_push(&cmd, "-MF");
      vec_push(&cmd, dep);
    }
    if (!has_flag(&inv->frontend, "-MT") && !has_flag(&inv->frontend, "-MQ")) {
      vec_push(&cmd, "-MT");
      vec_push(&cmd, final);
    }
  }
  if (language) {
    vec_push(&cmd, "-x");
    vec_push(&cmd, language);
  }
  vec_push(&cmd, source);
  vec_push(&cmd, "-o");
  vec_push(&cmd, bc);
  int rc = exec_run(&cmd, inv->verbose);
  vec_free(&cmd);
  free(dep);
  free(include);
  return rc;
}

/* IR to the user's output. When Parad has optimised the IR, clang only generates code; otherwise
 * (no derivative in the file) clang runs its own pipeline on the front end's IR, as for any program. */
static int backend(const Invocation *inv, const char *ir, const char *out, bool optimised) {
  StrList cmd = {0};
  vec_push(&cmd, exec_clang());
  vec_push(&cmd, inv->action == ACTION_ASSEMBLY ? "-S" : "-c");
  if (inv->emit_llvm && inv->action != ACTION_LINK) vec_push(&cmd, "-emit-llvm");
  push_all(&cmd, &inv->codegen);
  if (optimised) {
    vec_push(&cmd, "-Xclang");
    vec_push(&cmd, "-disable-llvm-passes");
  }
  vec_push(&cmd, "-Qunused-arguments");
  vec_push(&cmd, ir);
  vec_push(&cmd, "-o");
  vec_push(&cmd, out);
  int rc = exec_run(&cmd, inv->verbose);
  vec_free(&cmd);
  return rc;
}

/* The MPI runtime built against the program's MPI library: MPICH's wrapper links with -lmpich, Open MPI's
 * with -lmpi. libparad_mpi.a is the one built with the default mpicc, for any other link line. NULL when
 * none was built. */
static char *mpi_runtime_for(const Invocation *inv) {
  bool mpich = false;
  for (size_t i = 0; i < inv->link.len; i++) mpich |= inv->link.data[i] && !strcmp(inv->link.data[i], "-lmpich");
  const char *names[2] = {mpich ? "libparad_mpich.a" : "libparad_mpi.a", "libparad_mpi.a"};
  for (int i = 0; i < 2; i++) {
    char *path = xasprintf("%s/lib/%s", exec_parad_root(), names[i]);
    if (access(path, R_OK) == 0) return path;
    free(path);
  }
  return NULL;
}

static int link_program(const Invocation *inv, const StrList *objects) {
  StrList cmd = {0};
  vec_push(&cmd, exec_clang());
  size_t k = 0;
  for (size_t i = 0; i < inv->link.len; i++)
    vec_push(&cmd, inv->link.data[i] ? inv->link.data[i] : objects->data[k++]);
  vec_push(&cmd, "-o");
  vec_push(&cmd, inv->output ? inv->output : "a.out");
  vec_push(&cmd, "-Qunused-arguments");
  /* the MPI runtime (when built) is an archive: a program that makes no MPI call takes nothing from it */
  char *mpi_runtime = mpi_runtime_for(inv);
  if (mpi_runtime) vec_push(&cmd, mpi_runtime);
  char *runtime = xasprintf("%s/lib/libparad_rt.a", exec_parad_root());
  vec_push(&cmd, runtime);
  vec_push(&cmd, "-lm"); /* derivative code calls libm (cos for sin, ...) even where the program did not */
  int rc = exec_run(&cmd, inv->verbose);
  vec_free(&cmd);
  free(runtime);
  free(mpi_runtime);
  return rc;
}

static PipelineOptions pipeline_options(const Invocation *inv) {
  bool o2 = inv->opt == '2' || inv->opt == '3' || inv->opt == 's';
  PipelineOptions o = {
      .opt = inv->opt,
      .keep_debug = inv->debug,
      .vectorize = o2 && !inv->no_vectorize, /* clang: loops at -O2, -O3, -Os; SLP also at -Oz */
      .slp_vectorize = (o2 || inv->opt == 'z') && !inv->no_slp_vectorize,
      .unroll = (inv->opt == '2' || inv->opt == '3') && !inv->no_unroll,
      .text_output = inv->emit_llvm && inv->action == ACTION_ASSEMBLY,
      .verbose = inv->verbose,
  };
  return o;
}

/* Compiles one source to `final` (an object, assembly or IR, per the action). */
static int compile(const Invocation *inv, const char *source, const char *language, const char *final) {
  bool from_c = language ? strcmp(language, "ir") != 0 : !ends_with(source, ".ll") && !ends_with(source, ".bc");
  char *bc = from_c ? exec_temp_path(source, ".bc") : xstrdup(source);
  bool to_ir = inv->emit_llvm && inv->action != ACTION_LINK;
  char *opt = to_ir ? xstrdup(final) : exec_temp_path(source, ".opt.bc");
  PipelineOptions po = pipeline_options(inv);
  po.source_name = source;
  po.has_line_info = inv->debug || !from_c;
  int rc = from_c ? frontend(inv, source, language, bc, final, false) : 0;
  if (!rc) rc = pipeline_run(bc, opt, &po);
  if (rc == PIPELINE_WANTS_LINE_INFO) {
    po.has_line_info = true;
    rc = frontend(inv, source, language, bc, final, true);
    if (!rc) rc = pipeline_run(bc, opt, &po);
  }
  if (rc == PIPELINE_NO_REQUESTS)
    rc = backend(inv, bc, final, false);
  else if (!rc && !to_ir)
    rc = backend(inv, opt, final, true);
  free(opt);
  free(bc);
  return rc;
}

int main(int argc, char **argv) {
  Invocation inv;
  if (!args_parse(argc - 1, argv + 1, &inv)) return 1;
  if (inv.action == ACTION_PASSTHROUGH) {
    StrList cmd = {0};
    vec_push(&cmd, exec_clang());
    push_all(&cmd, &inv.all);
    if (inv.verbose) fprintf(stderr, "parad-cc: nothing to differentiate, running clang\n");
    return exec_replace(&cmd);
  }
  StrList objects = {0};
  VEC(char *) owned = {0};
  int rc = 0;
  for (size_t i = 0; i < inv.sources.len && !rc; i++) {
    const char *src = inv.sources.data[i];
    char *final;
    switch (inv.action) {
    case ACTION_COMPILE:
      final = inv.output ? xstrdup(inv.output) : default_output(src, inv.emit_llvm ? ".bc" : ".o");
      break;
    case ACTION_ASSEMBLY:
      final = inv.output ? xstrdup(inv.output) : default_output(src, inv.emit_llvm ? ".ll" : ".s");
      break;
    default: final = exec_temp_path(src, ".o"); break;
    }
    vec_push(&owned, final);
    vec_push(&objects, final);
    rc = compile(&inv, src, inv.languages.data[i], final);
    /* a refused program leaves no output behind, not even one from an earlier build */
    if (rc && inv.action != ACTION_LINK) unlink(final);
  }
  if (!rc && inv.action == ACTION_LINK) rc = link_program(&inv, &objects);
  else if (rc && inv.action == ACTION_LINK) unlink(inv.output ? inv.output : "a.out");
  for (size_t i = 0; i < owned.len; i++) free(owned.data[i]);
  vec_free(&owned);
  vec_free(&objects);
  args_free(&inv);
  return rc ? 1 : 0;
}
