/* The clang steps (see clang.h). */
#include "driver/clang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver/attributes.h"
#include "driver/exec.h"

static bool has_flag(const StrList *l, const char *prefix) {
  for (size_t i = 0; i < l->len; i++)
    if (l->data[i] && !strncmp(l->data[i], prefix, strlen(prefix))) return true;
  return false;
}

static char *replace_ext(const char *path, const char *ext) {
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
  return xasprintf("%.*s%s", (int)n, path, ext);
}

int clang_frontend(const StrList *flags, const char *source, const char *language, const char *bc, const char *dep_target,
                   FrontendRun run, bool verbose) {
  bool line_tables = run == FRONTEND_FIRST_WITH_LINES || run == FRONTEND_AGAIN_WITH_LINES;
  bool again = run == FRONTEND_AGAIN || run == FRONTEND_AGAIN_WITH_LINES;
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
  attributes_define(&cmd); /* before the user's flags: a -D of the user's own comes last and wins */
  for (size_t i = 0; i < flags->len; i++) vec_push(&cmd, flags->data[i]);
  /* the first run's messages go through parad-cc (attributes_check): in colour still, on a terminal */
  if (!again && isatty(2) && !has_flag(flags, "-fcolor-diagnostics") && !has_flag(flags, "-fno-color-diagnostics") &&
      !has_flag(flags, "-fdiagnostics-color") && !has_flag(flags, "-fno-diagnostics-color"))
    vec_push(&cmd, "-fcolor-diagnostics");
  char *include = xasprintf("%s/include", exec_parad_root());
  vec_push(&cmd, "-idirafter"); /* parad.h, after the user's own headers */
  vec_push(&cmd, include);
  /* line tables, so that refusals can say file:line; removed again unless the user asked for -g */
  if (line_tables) vec_push(&cmd, "-gline-tables-only");
  if (again) vec_push(&cmd, "-w"); /* its warnings have been shown once already */
  char *dep = NULL;
  if (dep_target && (has_flag(flags, "-MD") || has_flag(flags, "-MMD"))) {
    /* the dependency file describes the user's output, not our intermediate file */
    if (!has_flag(flags, "-MF")) {
      dep = replace_ext(dep_target, ".d");
      vec_push(&cmd, "-MF");
      vec_push(&cmd, dep);
    }
    if (!has_flag(flags, "-MT") && !has_flag(flags, "-MQ")) {
      vec_push(&cmd, "-MT");
      vec_push(&cmd, dep_target);
    }
  }
  if (language && *language) {
    vec_push(&cmd, "-x");
    vec_push(&cmd, language);
  }
  vec_push(&cmd, source);
  vec_push(&cmd, "-o");
  vec_push(&cmd, bc);
  int rc;
  if (again) {
    rc = exec_run(&cmd, verbose);
  } else {
    char *messages;
    rc = exec_run_keeping_stderr(&cmd, verbose, &messages);
    fputs(messages, stderr);
    if (attributes_check(messages) && !rc) rc = 1;
    free(messages);
  }
  vec_free(&cmd);
  free(dep);
  free(include);
  return rc;
}

int clang_codegen(const StrList *flags, const char *mode, bool emit_llvm, const char *ir, const char *out, bool optimised,
                  bool codegen_o2, bool verbose) {
  StrList cmd = {0};
  vec_push(&cmd, exec_clang());
  vec_push(&cmd, mode);
  if (emit_llvm) vec_push(&cmd, "-emit-llvm");
  for (size_t i = 0; i < flags->len; i++) vec_push(&cmd, flags->data[i]);
  if (codegen_o2) vec_push(&cmd, "-O2");
  if (optimised) {
    vec_push(&cmd, "-Xclang");
    vec_push(&cmd, "-disable-llvm-passes");
  }
  vec_push(&cmd, "-Qunused-arguments");
  vec_push(&cmd, "-Wno-deprecated-ofast"); /* said by the front end's run already */
  vec_push(&cmd, ir);
  vec_push(&cmd, "-o");
  vec_push(&cmd, out);
  int rc = exec_run(&cmd, verbose);
  vec_free(&cmd);
  return rc;
}
