#define _POSIX_C_SOURCE 200809L
#include "driver/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static bool cxx;

void exec_set_cxx(bool on) { cxx = on; }

static const char *clang_c(void) {
  const char *c = getenv("PARAD_CLANG");
  return c && *c ? c : PARAD_CLANG;
}

const char *exec_clang(void) { return cxx ? exec_llvm_tool("clang++") : clang_c(); }

const char *exec_llvm_tool(const char *name) {
  static char *known[8];
  for (int i = 0; i < 8; i++) {
    if (known[i] && !strcmp(strrchr(known[i], '/') + 1, name)) return known[i];
    if (known[i]) continue;
    char *dir = xstrdup(clang_c());
    char *slash = strrchr(dir, '/');
    known[i] = slash ? xasprintf("%.*s/%s", (int)(slash - dir), dir, name) : xasprintf("./%s", name);
    free(dir);
    return known[i];
  }
  return name;
}

const char *exec_parad_root(void) {
  static char root[4096];
  if (root[0]) return root;
  ssize_t n = readlink("/proc/self/exe", root, sizeof root - 1);
  if (n <= 0) {
    fprintf(stderr, "parad-cc: error: cannot tell where parad-cc is installed (/proc/self/exe): %s\n", strerror(errno));
    exit(1);
  }
  root[n] = 0;
  for (int up = 0; up < 2; up++) { /* .../bin/parad-cc -> ... */
    char *slash = strrchr(root, '/');
    if (slash) *slash = 0;
  }
  return root;
}

static void echo(const StrList *argv) {
  for (size_t i = 0; i < argv->len; i++) fprintf(stderr, "%s%s", i ? " " : " ", argv->data[i]);
  fputc('\n', stderr);
}

static char **terminated(const StrList *argv) {
  char **v = xcalloc(argv->len + 1, sizeof *v);
  for (size_t i = 0; i < argv->len; i++) v[i] = (char *)argv->data[i];
  return v;
}

int exec_run(const StrList *argv, bool verbose) {
  if (verbose) echo(argv);
  char **v = terminated(argv);
  pid_t pid;
  int err = posix_spawnp(&pid, v[0], NULL, NULL, v, environ);
  free(v);
  if (err) {
    fprintf(stderr, "parad-cc: error: cannot run %s: %s\n", argv->data[0], strerror(err));
    return 127;
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int exec_run_keeping_stderr(const StrList *argv, bool verbose, char **err) {
  if (verbose) echo(argv);
  *err = NULL;
  char *path = exec_temp_path("stderr", ".txt");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  char **v = terminated(argv);
  pid_t pid;
  int spawn = posix_spawnp(&pid, v[0], &actions, NULL, v, environ);
  posix_spawn_file_actions_destroy(&actions);
  free(v);
  int rc = 127;
  if (spawn) {
    fprintf(stderr, "parad-cc: error: cannot run %s: %s\n", argv->data[0], strerror(spawn));
  } else {
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  }
  FILE *f = fopen(path, "rb");
  StrBuf text = {0};
  char chunk[4096];
  size_t n;
  while (f && (n = fread(chunk, 1, sizeof chunk, f)) > 0) sb_printf(&text, "%.*s", (int)n, chunk);
  if (f) fclose(f);
  *err = text.s ? text.s : xstrdup("");
  unlink(path);
  free(path);
  return rc;
}

int exec_replace(const StrList *argv) {
  char **v = terminated(argv);
  execvp(v[0], v);
  fprintf(stderr, "parad-cc: error: cannot run %s: %s\n", v[0], strerror(errno));
  free(v);
  return 127;
}

/* ---- temporary files ---- */

static char *temp_dir;
static VEC(char *) temp_files;
static unsigned temp_serial;

static void remove_temps(void) {
  for (size_t i = 0; i < temp_files.len; i++) {
    unlink(temp_files.data[i]);
    free(temp_files.data[i]);
  }
  vec_free(&temp_files);
  if (temp_dir) rmdir(temp_dir);
  free(temp_dir);
  temp_dir = NULL;
}

static void on_signal(int sig) {
  remove_temps();
  signal(sig, SIG_DFL);
  raise(sig);
}

char *exec_temp_path(const char *stem, const char *ext) {
  if (!temp_dir) {
    const char *base = getenv("TMPDIR");
    temp_dir = xasprintf("%s/parad-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(temp_dir)) {
      fprintf(stderr, "parad-cc: error: cannot create a temporary directory: %s\n", strerror(errno));
      exit(1);
    }
    atexit(remove_temps);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
  }
  char *copy = xstrdup(stem);
  char *path = xasprintf("%s/%u-%s%s", temp_dir, temp_serial++, basename(copy), ext);
  free(copy);
  vec_push(&temp_files, xstrdup(path));
  return path;
}

const char *exec_temp_path_kept(const char *stem, const char *ext) {
  free(exec_temp_path(stem, ext));
  return temp_files.data[temp_files.len - 1];
}

bool exec_copy_stream(FILE *in, FILE *out) {
  char chunk[1 << 16];
  size_t n;
  bool ok = in && out;
  while (ok && (n = fread(chunk, 1, sizeof chunk, in)) > 0) ok = fwrite(chunk, 1, n, out) == n;
  if (out && (out == stdout ? fflush(out) : fclose(out))) ok = false;
  return ok;
}
