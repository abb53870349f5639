/* parad-cc: a C compiler driver that differentiates; parad-c++ (the same program under that name), the C++
 * one.
 *
 * Use it where you would use cc (or c++). For each C or C++ source it runs
 *     clang -emit-llvm (front end only)  ->  Parad + LLVM's optimiser (in process)  ->  clang (code generation)
 * and then links with clang. Everything it does not need to see (preprocessing, linking only, queries
 * such as --version) goes straight to clang. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver/args.h"
#include "driver/attributes.h"
#include "driver/clang.h"
#include "driver/embed.h"
#include "driver/exec.h"
#include "driver/link.h"
#include "driver/pipeline.h"

static void push_all(StrList *to, const StrList *from) {
  for (size_t i = 0; i < from->len; i++) vec_push(to, from->data[i]);
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

/* --coverage (gcov): where clang puts the notes and the counts, after the user's output, absolute: the
 * object's name without its extension (compiled and linked at once, "prog-file"). The front end writes them
 * into the IR; they were the intermediate file's, in Parad's temporary directory, removed at exit. */
static void coverage_files(const Invocation *inv, const char *source, const char *final, StrList *flags, OwnedList *owned) {
  bool coverage = false;
  for (size_t i = 0; i < inv->frontend.len; i++) {
    const char *a = inv->frontend.data[i];
    coverage |= !strcmp(a, "--coverage") || !strcmp(a, "-ftest-coverage") || !strcmp(a, "-fprofile-arcs");
  }
  if (!coverage) return;
  char cwd[4096], *base;
  if (inv->action == ACTION_LINK) {
    const char *slash = strrchr(source, '/'), *name = slash ? slash + 1 : source, *dot = strrchr(name, '.');
    base = xasprintf("%s-%.*s", inv->output ? inv->output : "a", (int)(dot ? dot - name : (long)strlen(name)), name);
  } else {
    const char *dot = strrchr(final, '.'), *slash = strrchr(final, '/');
    base = xasprintf("%.*s", (int)(dot && (!slash || dot > slash) ? dot - final : (long)strlen(final)), final);
  }
  const char *dir = base[0] == '/' ? "" : getcwd(cwd, sizeof cwd) ? cwd : ".";
  char *notes = xasprintf("-coverage-notes-file=%s%s%s.gcno", dir, *dir ? "/" : "", base);
  char *data = xasprintf("-coverage-data-file=%s%s%s.gcda", dir, *dir ? "/" : "", base);
  vec_push(flags, "-Xclang");
  vec_push(flags, notes);
  vec_push(flags, "-Xclang");
  vec_push(flags, data);
  vec_push(owned, notes);
  vec_push(owned, data);
  free(base);
}

/* Instrumentation that clang adds in its own pipeline and Parad's pipeline does not (driver/instrumentation.h
 * adds profile counters, gcov's, AddressSanitizer's and ThreadSanitizer's): said, not silently left out of a
 * file whose derivatives Parad made. */
static void warn_unapplied(const Invocation *inv, const char *source) {
  static const char *const prefixes[] = {"-fsanitize-coverage=", "-fprofile-generate", "-fcs-profile-generate"};
  for (size_t i = 0; i < inv->frontend.len; i++) {
    const char *a = inv->frontend.data[i];
    bool unapplied = !strncmp(a, "-fsanitize=", 11) && strstr(a, "memory");
    for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) unapplied |= !strncmp(a, prefixes[k], strlen(prefixes[k]));
    if (unapplied)
      fprintf(stderr, "parad-cc: warning: %s is not applied to %s, whose derivatives Parad made (not supported yet)\n", a, source);
  }
}

static int frontend(const Invocation *inv, const char *source, const char *language, const char *bc,
                    const char *final, FrontendRun run) {
  /* -MD: the dependencies of the user's output, as clang's (compiled and linked at once: the program's,
     named after it, not the intermediate object's) */
  char *named = inv->action == ACTION_LINK && !inv->output ? default_output(source, ".o") : NULL; /* clang's b.d, b.o */
  const char *target = inv->action != ACTION_LINK ? final : inv->output ? inv->output : named;
  StrList flags = {0};
  OwnedList owned = {0};
  for (size_t i = 0; i < inv->frontend.len; i++) vec_push(&flags, inv->frontend.data[i]);
  coverage_files(inv, source, final, &flags, &owned);
  int rc = clang_frontend(&flags, source, language, bc, target, run, inv->verbose);
  for (size_t i = 0; i < owned.len; i++) free(owned.data[i]);
  vec_free(&owned);
  vec_free(&flags);
  free(named);
  return rc;
}

static int backend(const Invocation *inv, const char *ir, const char *out, bool optimised, bool codegen_o2) {
  return clang_codegen(&inv->codegen, inv->action == ACTION_ASSEMBLY ? "-S" : "-c", inv->emit_llvm && inv->action != ACTION_LINK,
                       ir, out, optimised, codegen_o2, inv->verbose);
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

/* ld -r: objects combined into one, whose IR sections ld concatenates (embed.h); the derivatives wait
 * for the program's link, and nothing of the runtime goes in (it took libm's static members). */
static bool relocatable(const StrList *line) {
  for (size_t i = 0; i < line->len; i++) {
    const char *a = line->data[i];
    if (!strcmp(a, "-r") || !strcmp(a, "-Wl,-r") || !strcmp(a, "-Wl,--relocatable") || !strcmp(a, "--relocatable")) return true;
  }
  return false;
}

static int link_program(const Invocation *inv, const StrList *objects) {
  StrList line = {0};
  size_t k = 0;
  for (size_t i = 0; i < inv->link.len; i++) vec_push(&line, inv->link.data[i] ? inv->link.data[i] : objects->data[k++]);
  bool partial = relocatable(&line);
  if (!partial && link_time_derivatives(inv, &line)) {
    vec_free(&line);
    return 1;
  }
  StrList cmd = {0};
  vec_push(&cmd, exec_clang());
  push_all(&cmd, &line);
  vec_free(&line);
  vec_push(&cmd, "-o");
  vec_push(&cmd, inv->output ? inv->output : "a.out");
  vec_push(&cmd, "-Qunused-arguments");
  /* the MPI runtime (when built) is an archive: a program that makes no MPI call takes nothing from it */
  char *mpi_runtime = partial ? NULL : mpi_runtime_for(inv);
  if (mpi_runtime) vec_push(&cmd, mpi_runtime);
  char *runtime = xasprintf("%s/lib/libparad_rt.a", exec_parad_root());
  if (!partial) vec_push(&cmd, runtime);
  if (!partial) vec_push(&cmd, "-lm"); /* derivative code calls libm (cos for sin, ...) even where the program did not */
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
      .loose_aliasing = args_loose_aliasing(inv->frontend.data, inv->frontend.len),
  };
  return o;
}

static void copy_list(const StrList *from, OwnedList *to) {
  for (size_t i = 0; i < from->len; i++) vec_push(to, xstrdup(from->data[i]));
}

/* The object carries the front end's IR of its source and how it was compiled (embed.h), for
 * derivatives generated at link time. */
static int carry_ir(const Invocation *inv, const char *source, const char *language, const char *bc, const char *object,
                    int outcome, bool line_info) {
  EmbeddedIR ir = {.requests = outcome == PIPELINE_OK || outcome == PIPELINE_DEFERRED, .deferred = outcome == PIPELINE_DEFERRED,
                   .line_info = line_info, .opt = inv->opt};
  PipelineOptions po = pipeline_options(inv);
  ir.vectorize = po.vectorize, ir.slp_vectorize = po.slp_vectorize, ir.unroll = po.unroll;
  FILE *f = fopen(bc, "rb");
  if (!f) return 1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  ir.bitcode = xmalloc((size_t)(n > 0 ? n : 1));
  ir.bitcode_len = n > 0 && fread(ir.bitcode, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
  fclose(f);
  char cwd[4096];
  ir.cwd = xstrdup(getcwd(cwd, sizeof cwd) ? cwd : ".");
  ir.source = xstrdup(source);
  ir.language = xstrdup(language ? language : "");
  copy_list(&inv->frontend, &ir.frontend);
  copy_list(&inv->codegen, &ir.codegen);
  int rc = ir.bitcode_len ? embed_into_object(object, &ir, inv->verbose) : 1;
  embed_free(&ir);
  return rc;
}

/* Whether the source's own text names an entry point of derivatives (__enzyme_autodiff, parad.h's
 * parad_autodiff): a guess, since a header may name one for it, or the name be in a comment. */
static bool names_requests(const char *source) {
  FILE *f = fopen(source, "rb");
  if (!f) return false;
  static const char *const spellings[] = {"__enzyme_", "__parad_", "parad_autodiff", "parad_fwddiff", "parad_reverse",
                                          "parad_augmentfwd", "parad_fwdsplit", "parad_batch"};
  size_t len = 0, cap = 1 << 16, n;
  char *text = xmalloc(cap);
  while ((n = fread(text + len, 1, cap - len, f)) > 0)
    if ((len += n) == cap) text = xrealloc(text, cap *= 2);
  fclose(f);
  bool found = false;
  for (size_t i = 0; i < sizeof spellings / sizeof *spellings && !found; i++)
    found = memmem(text, len, spellings[i], strlen(spellings[i])) != NULL;
  free(text);
  return found;
}

/* Compiles one source to `final` (an object, assembly or IR, per the action). An object carries its IR
 * (carry_ir), and derivatives that reach other files are left to the link. */
static int compile(const Invocation *inv, const char *source, const char *language, const char *final) {
  bool from_c = language ? strcmp(language, "ir") != 0 : !ends_with(source, ".ll") && !ends_with(source, ".bc");
  char *bc = from_c ? exec_temp_path(source, ".bc") : xstrdup(source);
  bool to_ir = inv->emit_llvm && inv->action != ACTION_LINK;
  bool to_object = !inv->emit_llvm && (inv->action == ACTION_COMPILE || inv->action == ACTION_LINK);
  char *opt = to_ir ? xstrdup(final) : exec_temp_path(source, ".opt.bc");
  PipelineOptions po = pipeline_options(inv);
  po.source_name = source;
  po.has_line_info = inv->debug || !from_c;
  po.may_defer = to_object && from_c;
  po.file_only = !to_object && from_c;
  /* a file that asks for derivatives needs line tables (for diagnostics), one that does not must be
     compiled without, as clang would: a guess from the source's text saves the front end's second run
     in the common case, and a wrong guess costs that run */
  bool guess_lines = from_c && !po.has_line_info && names_requests(source);
  int rc = from_c ? frontend(inv, source, language, bc, final, guess_lines ? FRONTEND_FIRST_WITH_LINES : FRONTEND_FIRST) : 0;
  po.has_line_info |= guess_lines;
  if (!rc) rc = pipeline_run(bc, opt, &po);
  if (rc == PIPELINE_WANTS_LINE_INFO || (guess_lines && (rc == PIPELINE_NO_REQUESTS || rc == PIPELINE_MARKERS))) {
    po.has_line_info = !guess_lines;
    rc = frontend(inv, source, language, bc, final, guess_lines ? FRONTEND_AGAIN : FRONTEND_AGAIN_WITH_LINES);
    if (!rc) rc = pipeline_run(bc, opt, &po);
  }
  int outcome = rc;
  if (rc == PIPELINE_OK) warn_unapplied(inv, source);
  if (rc == PIPELINE_REFUSED && po.sees_too_little)
    fprintf(stderr, "parad-cc: note: with -S or -emit-llvm Parad sees this file alone; a derivative that reaches "
                    "functions of other files is made when parad-cc links the program's objects (-c, then link)\n");
  if (rc == PIPELINE_NO_REQUESTS || rc == PIPELINE_DEFERRED) { /* clang compiles the front end's IR */
    rc = backend(inv, bc, final, false, false);
  } else if (rc == PIPELINE_MARKERS) { /* clang's own pipeline, on the file with weak markers */
    char *weak = exec_temp_path(source, ".markers.bc");
    rc = rename(opt, weak) ? PIPELINE_FAILED : backend(inv, weak, final, false, false);
    free(weak);
  } else if (!rc && !to_ir) {
    rc = backend(inv, opt, final, true, po.optimised_derivatives);
  }
  if (!rc && to_object && from_c) rc = carry_ir(inv, source, language, bc, final, outcome, po.has_line_info);
  free(opt);
  free(bc);
  return rc;
}

/* An output that exists and is not a regular file: /dev/null (a build system testing a flag), a pipe, the
 * standard output ("-"). The compiler writes such an output only as a whole, at the end, and never
 * removes it: a refused program removing /dev/null, as root, broke the machine. */
static bool special_output(const char *path) {
  struct stat st;
  return !strcmp(path, "-") || (lstat(path, &st) == 0 && !S_ISREG(st.st_mode));
}

/* A refused program leaves no output behind, not even one from an earlier build. */
static void remove_output(const char *path) {
  if (!special_output(path)) unlink(path);
}

/* Copies the file `from` into `to` (a special output; "-": the standard output). */
static int copy_output(const char *from, const char *to) {
  FILE *in = fopen(from, "rb");
  bool ok = exec_copy_stream(in, !in ? NULL : !strcmp(to, "-") ? stdout : fopen(to, "wb"));
  if (in) fclose(in);
  if (!ok) fprintf(stderr, "parad-cc: error: cannot write %s\n", to);
  return !ok;
}

/* A source read from the standard input ("-x c -"), kept in a file: the front end may run twice on it
 * (again with line tables, for a diagnostic), and the standard input can be read only once. */
static char *stdin_source(void) {
  char *path = exec_temp_path("stdin", ".src");
  if (exec_copy_stream(stdin, fopen(path, "wb"))) return path;
  fprintf(stderr, "parad-cc: error: cannot keep the standard input in %s\n", path);
  free(path);
  return NULL;
}

static bool named_cxx(const char *argv0) {
  const char *base = strrchr(argv0, '/');
  base = base ? base + 1 : argv0;
  size_t n = strlen(base);
  return n >= 2 && !strcmp(base + n - 2, "++");
}

int main(int argc, char **argv) {
  exec_set_cxx(named_cxx(argv[0]));
  Invocation inv;
  if (!args_parse(argc - 1, argv + 1, &inv)) return 1;
  if (inv.action == ACTION_PASSTHROUGH) {
    for (size_t i = 0; i < inv.all.len; i++)
      if (!strcmp(inv.all.data[i], "--version")) printf("Parad %s (parad-cc: clang that differentiates), installed in %s\n", PARAD_VERSION, exec_parad_root());
    fflush(stdout);
    StrList cmd = {0};
    vec_push(&cmd, exec_clang());
    /* what the front end sees when it compiles (parad.h, Enzyme's attributes), for -E, -M, -MM and
       -fsyntax-only too: a Makefile's dependency rule, ccache and an editor's checks read the same headers */
    bool reads_sources = false; /* and precompiled headers: a header that includes parad.h */
    for (size_t i = 0; i < inv.all.len; i++) {
      const char *a = inv.all.data[i];
      reads_sources |= !strcmp(a, "-E") || !strcmp(a, "-M") || !strcmp(a, "-MM") || !strcmp(a, "-fsyntax-only") ||
                       ends_with(a, "-header") ||
                       (a[0] != '-' && (ends_with(a, ".h") || ends_with(a, ".hh") || ends_with(a, ".hpp") || ends_with(a, ".hxx")));
    }
    if (reads_sources) {
      attributes_define(&cmd);
      vec_push(&cmd, "-idirafter");
      vec_push(&cmd, xasprintf("%s/include", exec_parad_root())); /* the process becomes clang: not freed */
    }
    push_all(&cmd, &inv.all);
    if (inv.verbose) fprintf(stderr, "parad-cc: nothing to differentiate, running clang\n");
    return exec_replace(&cmd);
  }
  StrList objects = {0};
  VEC(char *) owned = {0};
  int rc = 0;
  for (size_t i = 0; i < inv.sources.len && !rc; i++) {
    const char *src = inv.sources.data[i];
    char *kept = !strcmp(src, "-") ? stdin_source() : NULL;
    if (!strcmp(src, "-") && !kept) {
      rc = 1;
      break;
    }
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
    const char *from = kept ? kept : src;
    if (inv.action != ACTION_LINK && special_output(final)) {
      char *built = exec_temp_path(src, ".out");
      rc = compile(&inv, from, inv.languages.data[i], built);
      if (!rc) rc = copy_output(built, final);
      free(built);
    } else {
      rc = compile(&inv, from, inv.languages.data[i], final);
    }
    free(kept);
    if (rc && inv.action != ACTION_LINK) remove_output(final);
  }
  if (!rc && inv.action == ACTION_LINK) rc = link_program(&inv, &objects);
  /* refused as it compiled, or as it linked: most derivatives are made at the link, of all files at once */
  if (rc && inv.action == ACTION_LINK) remove_output(inv.output ? inv.output : "a.out");
  for (size_t i = 0; i < owned.len; i++) free(owned.data[i]);
  vec_free(&owned);
  vec_free(&objects);
  args_free(&inv);
  return rc ? 1 : 0;
}
