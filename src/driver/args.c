#include "driver/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Flags that take their value as the next argument, and the step they belong to. */
static const char *const frontend_with_value[] = {"-I", "-D", "-U", "-include", "-include-pch", "-imacros", "-isystem",
                                                  "-iquote", "-idirafter", "-iprefix", "-iwithprefix",
                                                  "-iwithprefixbefore", "-iwithsysroot", "-MF", "-MT",
                                                  "-MQ", "-Xclang", "-Xpreprocessor", NULL};
static const char *const link_with_value[] = {"-L", "-l", "-Xlinker", "-T", "-u", "-z", NULL};
static const char *const shared_with_value[] = {"-target", "-arch", "--sysroot", "-isysroot", "-B", NULL};

/* Joined flags (-Ifoo, -lm) and flags without value, by prefix. */
static const char *const frontend_prefixes[] = {"-I", "-D", "-U", "-W", "-w", "-std=", "-ansi", "-pedantic",
                                                "-M", "-include", "-isystem", "-iquote", "-idirafter",
                                                "-nostdinc", "-C", "-trigraphs", "-Xclang", NULL};
static const char *const link_prefixes[] = {"-l", "-L", "-Wl,", "-shared", "-static", "-rdynamic", "-nostdlib",
                                            "-nodefaultlibs", "-nostartfiles", "-pie", "-no-pie", "-Xlinker", "-fuse-ld=", "--ld-path=", "-rpath", NULL};

static bool in(const char *s, const char *const *list) {
  for (; *list; list++)
    if (!strcmp(s, *list)) return true;
  return false;
}

static bool has_prefix(const char *s, const char *const *list) {
  for (; *list; list++)
    if (!strncmp(s, *list, strlen(*list))) return true;
  return false;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

static bool is_source(const char *path) {
  static const char *const exts[] = {".c", ".i", ".ll", ".bc", ".cpp", ".cc", ".cxx", ".c++", ".cp", ".C", ".CPP", ".ii", NULL};
  for (const char *const *e = exts; *e; e++)
    if (ends_with(path, *e)) return true;
  return false;
}

static bool passthrough_flag(const char *a) {
  static const char *const exact[] = {"-E", "-fsyntax-only", "-M", "-MM", "-###", "--version", "-dumpversion",
                                      "-dumpmachine", "--help", "-help", NULL};
  static const char *const prefix[] = {"-print-", "--print-", NULL};
  return in(a, exact) || has_prefix(a, prefix);
}

static void opt_level(Invocation *inv, const char *a) {
  const char *l = a + 2;
  if (!*l) inv->opt = '1';
  else if (!strcmp(l, "fast")) inv->opt = '3', inv->fast_math = true;
  else if (!strcmp(l, "g")) inv->opt = '1';
  else if (*l >= '0' && *l <= '9') inv->opt = *l > '3' ? '3' : *l;
  else if (*l == 's' || *l == 'z') inv->opt = *l;
}

/* -x LANG: C and C++ (preprocessed or not) and LLVM IR go through the pipeline whatever their names;
   another language means the command is not one parad-cc can differentiate, so it goes to clang unchanged.
   Returns the language the next inputs have, NULL for "none" (told by their names). */
static const char *language(const char *lang, bool *passthrough) {
  static const char *const ours[] = {"c", "cpp-output", "c++", "c++-cpp-output", "ir", NULL};
  if (!strcmp(lang, "none")) return NULL;
  if (!in(lang, ours)) *passthrough = true;
  return lang;
}

bool args_loose_aliasing(const char *const *flags, size_t n) {
  bool loose = false;
  for (size_t i = 0; i < n; i++)
    if (!strcmp(flags[i], "-fno-strict-aliasing") || !strcmp(flags[i], "-fstrict-aliasing")) loose = flags[i][2] == 'n';
  return loose;
}

/* One response file's words (args.h). */
bool args_response_words(const char *path, StrList *words) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  StrBuf word = {0};
  bool in_word = false;
  char quote = 0;
  for (int c; (c = fgetc(f)) != EOF;) {
    if (c == '\\') {
      int d = fgetc(f);
      if (d != EOF) sb_printf(&word, "%c", d), in_word = true;
    } else if (quote) {
      if (c == quote) quote = 0;
      else sb_printf(&word, "%c", c);
    } else if (c == '\'' || c == '"') {
      quote = (char)c, in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      if (in_word) vec_push(words, word.s ? word.s : xstrdup(""));
      word = (StrBuf){0}, in_word = false;
    } else {
      sb_printf(&word, "%c", c), in_word = true;
    }
  }
  if (in_word) vec_push(words, word.s ? word.s : xstrdup(""));
  else free(word.s);
  fclose(f);
  return true;
}

/* The arguments in response file `path`, as GCC and clang read them: separated by white space, quoted
 * with '...' or "...", a backslash taking the next character as it is; response files named there read
 * in turn (up to a depth, against loops). False when the file cannot be read: the argument is then an
 * input like any other, as with clang. */
static bool read_response_file(const char *path, Invocation *inv, StrList *out, int depth) {
  StrList words = {0};
  if (depth >= 16 || !args_response_words(path, &words)) return false;
  for (size_t i = 0; i < words.len; i++) {
    vec_push(&inv->owned, (char *)words.data[i]);
    if (words.data[i][0] != '@' || !read_response_file(words.data[i] + 1, inv, out, depth + 1)) vec_push(out, words.data[i]);
  }
  vec_free(&words);
  return true;
}

static bool parse(int argc, const char *const *argv, Invocation *inv) {
  inv->action = ACTION_LINK;
  inv->opt = '0';
  bool passthrough = false;
  const char *lang = NULL;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *next = i + 1 < argc ? argv[i + 1] : NULL;
    if (a[0] != '-' || !a[1]) { /* an input */
      if (lang || is_source(a)) {
        vec_push(&inv->sources, a);
        vec_push(&inv->languages, lang);
        vec_push(&inv->link, NULL);
      } else {
        vec_push(&inv->link, a);
        /* a header compiled on its own is precompiled: clang's work (parad.h still found: parad-cc.c) */
        passthrough |= ends_with(a, ".h") || ends_with(a, ".hh") || ends_with(a, ".hpp") || ends_with(a, ".hxx");
      }
      continue;
    }
    if (!strcmp(a, "-o")) {
      if (!next) {
        fprintf(stderr, "parad-cc: error: -o needs a file name\n");
        return false;
      }
      inv->output = argv[++i];
      continue;
    }
    if (!strcmp(a, "-x") && next) {
      lang = language(argv[++i], &passthrough);
      continue;
    }
    if (!strncmp(a, "-x", 2) && a[2]) {
      lang = language(a + 2, &passthrough);
      continue;
    }
    if (!strcmp(a, "-c")) { inv->action = ACTION_COMPILE; continue; }
    if (!strcmp(a, "-S")) { inv->action = ACTION_ASSEMBLY; continue; }
    if (!strcmp(a, "-emit-llvm")) { inv->emit_llvm = true; continue; }
    if (passthrough_flag(a)) passthrough = true;
    if (!strcmp(a, "-v")) inv->verbose = true;
    if (a[1] == 'O') opt_level(inv, a);
    if (a[1] == 'g') inv->debug = strcmp(a, "-g0") != 0;
    if (!strcmp(a, "-fno-vectorize") || !strcmp(a, "-fno-tree-vectorize")) inv->no_vectorize = true;
    if (!strcmp(a, "-fvectorize") || !strcmp(a, "-ftree-vectorize")) inv->no_vectorize = false;
    if (!strcmp(a, "-fno-slp-vectorize")) inv->no_slp_vectorize = true;
    if (!strcmp(a, "-fslp-vectorize")) inv->no_slp_vectorize = false;
    if (!strcmp(a, "-fno-unroll-loops")) inv->no_unroll = true;
    if (!strcmp(a, "-funroll-loops")) inv->no_unroll = false;
    if (!strcmp(a, "-ffast-math")) inv->fast_math = true;

    if (in(a, frontend_with_value) && next) {
      vec_push(&inv->frontend, a);
      vec_push(&inv->frontend, argv[++i]);
      continue;
    }
    if (in(a, link_with_value) && next) {
      vec_push(&inv->link, a);
      vec_push(&inv->link, argv[++i]);
      continue;
    }
    if (in(a, shared_with_value) && next) {
      const char *v = argv[++i];
      StrList *lists[3] = {&inv->frontend, &inv->codegen, &inv->link};
      for (int k = 0; k < 3; k++) {
        vec_push(lists[k], a);
        vec_push(lists[k], v);
      }
      continue;
    }
    if (!strncmp(a, "-Wa,", 4)) { vec_push(&inv->codegen, a); continue; }
    /* link-time optimisation: parad-cc's objects are native code that carries its IR for derivatives across
       files (an object of bitcode cannot carry it); the link still optimises other files' bitcode */
    if (!strcmp(a, "-flto") || !strncmp(a, "-flto=", 6) || !strcmp(a, "-fno-lto")) { vec_push(&inv->link, a); continue; }
    if (has_prefix(a, link_prefixes) || !strcmp(a, "-s")) { vec_push(&inv->link, a); continue; }
    if (has_prefix(a, frontend_prefixes)) { vec_push(&inv->frontend, a); continue; }
    /* -O, -g, -f..., -m..., -pthread, --target=...: every step */
    vec_push(&inv->frontend, a);
    vec_push(&inv->codegen, a);
    vec_push(&inv->link, a);
  }
  /* A link of objects alone still goes through parad-cc: derivative code needs the runtime and libm. */
  bool link_only = inv->action == ACTION_LINK && inv->sources.len == 0 && inv->link.len > 0;
  if (passthrough || (inv->sources.len == 0 && !link_only)) inv->action = ACTION_PASSTHROUGH;
  if (inv->action != ACTION_PASSTHROUGH && inv->action != ACTION_LINK && inv->output && inv->sources.len > 1) {
    fprintf(stderr, "parad-cc: error: cannot specify -o when generating multiple output files\n");
    return false;
  }
  return true;
}

bool args_parse(int argc, char **argv, Invocation *inv) {
  memset(inv, 0, sizeof *inv);
  StrList args = {0};
  for (int i = 0; i < argc; i++) {
    vec_push(&inv->all, argv[i]); /* clang reads the response files itself */
    if (argv[i][0] != '@' || !read_response_file(argv[i] + 1, inv, &args, 0)) vec_push(&args, argv[i]);
  }
  bool ok = parse((int)args.len, args.data, inv);
  vec_free(&args);
  return ok;
}

void args_free(Invocation *inv) {
  for (size_t i = 0; i < inv->owned.len; i++) free(inv->owned.data[i]);
  vec_free(&inv->owned);
  vec_free(&inv->sources);
  vec_free(&inv->languages);
  vec_free(&inv->frontend);
  vec_free(&inv->codegen);
  vec_free(&inv->link);
  vec_free(&inv->all);
}
