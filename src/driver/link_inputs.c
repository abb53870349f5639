/* What the linker sees of a link line (see link_inputs.h). */
#include "driver/link_inputs.h"

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- an object's symbols: its ELF symbol table (64-bit relocatable objects, what clang makes) ---- */

/* Copies a record out of data; false when it does not lie inside (archive members are only 2-aligned,
 * so records are copied, not pointed at). */
static bool record_at(const char *data, size_t size, uint64_t at, void *to, size_t n) {
  if (at > size || n > size - at) return false;
  memcpy(to, data + at, n);
  return true;
}

/* An object's symbol table, or a shared library's dynamic one (what it exports). */
static void read_symbols(const char *data, size_t size, LinkUnit *u) {
  Elf64_Ehdr eh;
  if (!record_at(data, size, 0, &eh, sizeof eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      (eh.e_type != ET_REL && eh.e_type != ET_DYN) || eh.e_shentsize != sizeof(Elf64_Shdr))
    return;
  u->shared = eh.e_type == ET_DYN;
  for (unsigned s = 0; s < eh.e_shnum; s++) {
    Elf64_Shdr sh, strings;
    if (!record_at(data, size, eh.e_shoff + (uint64_t)s * sizeof sh, &sh, sizeof sh)) return;
    if (sh.sh_type != (u->shared ? SHT_DYNSYM : SHT_SYMTAB) || sh.sh_entsize != sizeof(Elf64_Sym)) continue;
    if (!record_at(data, size, eh.e_shoff + (uint64_t)sh.sh_link * sizeof sh, &strings, sizeof strings)) return;
    if (strings.sh_offset > size || strings.sh_size > size - strings.sh_offset) return;
    const char *names = data + strings.sh_offset;
    for (uint64_t k = sh.sh_info; k < sh.sh_size / sizeof(Elf64_Sym); k++) { /* sh_info: the first global */
      Elf64_Sym sym;
      if (!record_at(data, size, sh.sh_offset + k * sizeof sym, &sym, sizeof sym) || sym.st_name >= strings.sh_size) return;
      unsigned bind = ELF64_ST_BIND(sym.st_info);
      if (bind == STB_LOCAL || !memchr(names + sym.st_name, 0, strings.sh_size - sym.st_name)) continue;
      bool weak = bind == STB_WEAK;
      if (u->shared && sym.st_shndx == SHN_UNDEF) continue; /* what it uses is the dynamic linker's */
      SymbolKind kind = sym.st_shndx == SHN_UNDEF ? (weak ? SYM_WEAK_UNDEFINED : SYM_UNDEFINED)
                        : weak || sym.st_shndx == SHN_COMMON ? SYM_WEAK /* a common symbol yields to a definition */
                                                             : SYM_STRONG;
      LinkSymbol ls = {xstrdup(names + sym.st_name), kind};
      vec_push(&u->symbols, ls);
    }
  }
}

/* ---- the files of the line ---- */

typedef struct {
  LinkView *view;
  size_t position, argument;
  bool direct, whole;
  int group;
} Where;

static void add_unit(const Where *w, const char *data, size_t size, const char *origin, bool member) {
  LinkUnit u = {.origin = xstrdup(origin), .position = w->position, .argument = w->argument, .member = member,
                .whole = member && w->whole, .direct = w->direct, .group = w->group};
  read_symbols(data, size, &u);
  embed_read_object(data, size, origin, member, &u.ir);
  if (!u.symbols.len && !u.ir.len) { /* not an object: a linker script, a shared library stub, a directory */
    free(u.origin);
    return;
  }
  vec_push(&w->view->units, u);
}

static void read_file(const Where *w, const char *path, const char *origin, bool member);

/* The members of a System V / GNU static archive: "!<arch>\n", then per member a 60-byte header (name,
 * dates, mode, decimal size, "`\n") and its data padded to an even size. "/" is the symbol table, "//"
 * the long names that "/offset" names point into. A thin archive ("!<thin>\n", ar's T) holds only the
 * headers of its members (their names paths from the archive's directory, their data in those files). */
static void read_archive(const Where *w, const char *data, size_t size, const char *path, bool thin) {
  const char *longnames = NULL;
  size_t longsize = 0;
  for (size_t at = 8; at + 60 <= size;) {
    const char *h = data + at;
    char sizefield[11];
    memcpy(sizefield, h + 48, 10);
    sizefield[10] = 0;
    size_t n = (size_t)strtoull(sizefield, NULL, 10);
    const char *body = h + 60;
    bool table = h[0] == '/' && (h[1] == ' ' || h[1] == '/' || h[1] == 'S'); /* "/", "//", "/SYM64/" */
    size_t stored = thin && !table ? 0 : n; /* a thin archive's member data lies elsewhere */
    if (at + 60 + stored > size) break;
    char name[256];
    size_t len = 0;
    if (h[0] == '/' && h[1] == '/') {
      longnames = body, longsize = n;
    } else if (h[0] == '/' && h[1] >= '0' && h[1] <= '9' && longnames) {
      size_t off = (size_t)strtoul(h + 1, NULL, 10);
      /* "name/\n" (a thin archive's names are paths: their slashes are the name's) */
      while (off + len < longsize && longnames[off + len] != '\n' && len < sizeof name - 1) len++;
      memcpy(name, longnames + off, len);
      if (len && name[len - 1] == '/') len--;
    } else if (h[0] != '/') {
      while (len < 16 && h[len] != '/' && h[len] != ' ') len++;
      memcpy(name, h, len);
    }
    name[len] = 0;
    if (len) {
      char *origin = xasprintf("%s(%s)", path, name);
      if (!thin) {
        add_unit(w, body, n, origin, true);
      } else {
        const char *slash = strrchr(path, '/');
        char *file = name[0] == '/' || !slash ? xstrdup(name) : xasprintf("%.*s/%s", (int)(slash - path), path, name);
        read_file(w, file, origin, true);
        free(file);
      }
      free(origin);
    }
    at += 60 + stored + (stored & 1);
  }
}

/* An object or archive at path; origin names it in messages, member says it is an archive's. */
static void read_file(const Where *w, const char *path, const char *origin, bool member) {
  FILE *f = fopen(path, "rb");
  if (!f) return;
  char *data = NULL;
  size_t size = 0, cap = 0;
  for (size_t got;;) {
    if (size == cap) data = xrealloc(data, cap = cap ? 2 * cap : 1 << 16);
    if (!(got = fread(data + size, 1, cap - size, f))) break;
    size += got;
  }
  fclose(f);
  if (size >= 8 && (!memcmp(data, "!<arch>\n", 8) || !memcmp(data, "!<thin>\n", 8)))
    read_archive(w, data, size, path, data[2] == 't');
  else
    add_unit(w, data, size, origin, member);
  free(data);
}

/* ---- the line as the linker reads it ---- */

typedef struct {
  const char *text;
  size_t position;
  bool direct;
} LinkerArg;

typedef VEC(LinkerArg) LinkerArgs;

/* An argument given to ld itself at line position i: its own response file (@file) read in its place. */
static void ld_arg(const char *text, size_t i, LinkerArgs *out, StrList *pieces, int depth) {
  StrList words = {0};
  if (text[0] == '@' && depth < 16 && args_response_words(text + 1, &words)) {
    for (size_t k = 0; k < words.len; k++) vec_push(pieces, words.data[k]);
    for (size_t k = 0; k < words.len; k++) ld_arg(words.data[k], i, out, pieces, depth + 1);
    vec_free(&words);
    return;
  }
  LinkerArg la = {text, i, false};
  vec_push(out, la);
}

/* The linker's arguments: -Wl,a,b and -Xlinker a are ld's a and b, in their places. Driver flags that take
 * a value are skipped with it. */
static void linker_args(const StrList *line, LinkerArgs *out, StrList *pieces) {
  for (size_t i = 0; i < line->len; i++) {
    const char *a = line->data[i];
    if (!strcmp(a, "-Xlinker") && i + 1 < line->len) {
      i++;
      ld_arg(line->data[i], i, out, pieces, 0);
    } else if (!strncmp(a, "-Wl,", 4)) {
      for (const char *p = a + 4; *p;) {
        size_t n = strcspn(p, ",");
        char *piece = xasprintf("%.*s", (int)n, p);
        vec_push(pieces, piece);
        ld_arg(piece, i, out, pieces, 0);
        p += n + (p[n] == ',');
      }
    } else if ((!strcmp(a, "-o") || !strcmp(a, "-T") || !strcmp(a, "-x") || !strcmp(a, "-L") || !strcmp(a, "-l") || !strcmp(a, "-u")) &&
               i + 1 < line->len) {
      LinkerArg flag = {a, i, true}, value = {line->data[i + 1], i + 1, true};
      if (strcmp(a, "-o") && strcmp(a, "-T") && strcmp(a, "-x")) {
        vec_push(out, flag);
        vec_push(out, value);
      }
      i++;
    } else {
      LinkerArg la = {a, i, true};
      vec_push(out, la);
    }
  }
}

/* The library -lname (or -l:file) stands for, as ld searches: each directory (-L ones in order, then
 * LIBRARY_PATH's, then the usual ones) in turn; in one, libname.so wins over libname.a unless linking
 * statically. */
static char *archive_of(const LinkerArgs *args, const char *name, bool is_static) {
  static const char *const system_dirs[] = {"/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib", "/lib", NULL};
  StrList dirs = {0};
  VEC(char *) owned = {0};
  for (size_t i = 0; i < args->len; i++) {
    const char *a = args->data[i].text;
    if (!strcmp(a, "-L") && i + 1 < args->len) vec_push(&dirs, args->data[++i].text);
    else if (!strncmp(a, "-L", 2) && a[2]) vec_push(&dirs, a + 2);
  }
  const char *env = getenv("LIBRARY_PATH");
  for (const char *p = env; p && *p;) {
    size_t n = strcspn(p, ":");
    char *dir = xasprintf("%.*s", (int)n, p);
    vec_push(&owned, dir);
    if (n) vec_push(&dirs, dir);
    p += n + (p[n] == ':');
  }
  for (const char *const *d = system_dirs; *d; d++) vec_push(&dirs, *d);
  char *found = NULL;
  for (size_t i = 0; i < dirs.len && !found; i++) {
    if (name[0] == ':') { /* -l:file: that file exactly */
      char *path = xasprintf("%s/%s", dirs.data[i], name + 1);
      if (access(path, R_OK) == 0) found = path;
      else free(path);
      continue;
    }
    char *so = xasprintf("%s/lib%s.so", dirs.data[i], name), *a = xasprintf("%s/lib%s.a", dirs.data[i], name);
    if (!is_static && access(so, R_OK) == 0) found = so, so = NULL;
    else if (access(a, R_OK) == 0) found = a, a = NULL;
    free(a);
    free(so);
  }
  for (size_t i = 0; i < owned.len; i++) free(owned.data[i]);
  vec_free(&owned);
  vec_free(&dirs);
  return found;
}

void link_view_read(const StrList *line, LinkView *v) {
  LinkerArgs args = {0};
  StrList pieces = {0};
  linker_args(line, &args, &pieces);
  bool is_static = false;
  for (size_t i = 0; i < line->len; i++) is_static |= !strcmp(line->data[i], "-static");
  bool whole = false, static_now = is_static;
  int group = 0, groups = 0;
  for (size_t i = 0; i < args.len; i++) {
    const LinkerArg *la = &args.data[i];
    const char *a = la->text;
    Where w = {v, la->position, i, la->direct, whole, group};
    char *path = NULL;
    if (!strcmp(a, "--whole-archive")) whole = true;
    else if (!strcmp(a, "--no-whole-archive")) whole = false;
    else if (!strcmp(a, "--start-group") || !strcmp(a, "-(")) group = ++groups;
    else if (!strcmp(a, "--end-group") || !strcmp(a, "-)")) group = 0;
    else if (!strcmp(a, "-Bstatic") || !strcmp(a, "-dn") || !strcmp(a, "-non_shared")) static_now = true;
    else if (!strcmp(a, "-Bdynamic") || !strcmp(a, "-dy") || !strcmp(a, "-call_shared")) static_now = is_static;
    else if (!strcmp(a, "-u") && i + 1 < args.len) vec_push(&v->forced, args.data[++i].text);
    else if (!strncmp(a, "--undefined=", 12)) vec_push(&v->forced, a + 12);
    else if (!strncmp(a, "-u", 2) && a[2]) vec_push(&v->forced, a + 2);
    else if (!strcmp(a, "--allow-multiple-definition") || !strcmp(a, "-zmuldefs")) v->muldefs = true;
    else if (!strcmp(a, "-z") && i + 1 < args.len && !strcmp(args.data[i + 1].text, "muldefs")) v->muldefs = true, i++;
    else if (!strncmp(a, "--wrap=", 7)) vec_push(&v->wrapped, a + 7);
    else if (!strcmp(a, "--wrap") && i + 1 < args.len) vec_push(&v->wrapped, args.data[++i].text);
    else if ((!strcmp(a, "-l") || !strcmp(a, "--library")) && i + 1 < args.len) path = archive_of(&args, args.data[++i].text, static_now);
    else if (!strncmp(a, "-l", 2) && a[2]) path = archive_of(&args, a + 2, static_now);
    else if (!strcmp(a, "-L") && i + 1 < args.len) i++;
    else if (a[0] != '-') path = xstrdup(a); /* objects, archives, shared libraries */
    if (path) read_file(&w, path, path, false);
    free(path);
  }
  /* the names point into pieces or the line: kept as copies */
  for (size_t i = 0; i < v->wrapped.len; i++) v->wrapped.data[i] = xstrdup(v->wrapped.data[i]);
  for (size_t i = 0; i < v->forced.len; i++) v->forced.data[i] = xstrdup(v->forced.data[i]);
  for (size_t i = 0; i < pieces.len; i++) free((char *)pieces.data[i]);
  vec_free(&pieces);
  vec_free(&args);
}

/* ---- resolution ---- */

/* The symbol table: open addressing on the name's FNV-1a hash. */
typedef struct {
  char *name;    /* NULL: a free slot */
  long definer;  /* the unit whose definition wins, or -1 */
  bool strong;   /* ... and it is strong */
  bool wanted;   /* referenced, not weakly, by a taken unit */
  bool shared;   /* the definer is a shared library: any object's or member's definition wins over it */
} Entry;

typedef struct {
  Entry *slots;
  size_t cap, len;
} Table;

static uint64_t hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static Entry *lookup(Table *t, const char *name, bool add) {
  if (add && 2 * (t->len + 1) > t->cap) { /* grow: at most half full */
    size_t cap = t->cap ? 2 * t->cap : 1024;
    Entry *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < t->cap; i++) {
      if (!t->slots[i].name) continue;
      size_t k = hash(t->slots[i].name) & (cap - 1);
      while (slots[k].name) k = (k + 1) & (cap - 1);
      slots[k] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots, t->cap = cap;
  }
  if (!t->cap) return NULL;
  for (size_t i = hash(name) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
    Entry *e = &t->slots[i];
    if (e->name && !strcmp(e->name, name)) return e;
    if (e->name) continue;
    if (!add) return NULL;
    t->len++;
    *e = (Entry){xstrdup(name), -1, false, false, false};
    return e;
  }
}

const char *link_view_wrapped(const LinkView *v, const char *name, char **owned) {
  *owned = NULL;
  for (size_t i = 0; i < v->wrapped.len; i++) {
    const char *w = v->wrapped.data[i];
    if (!strcmp(name, w)) return *owned = xasprintf("__wrap_%s", w);
    if (!strncmp(name, "__real_", 7) && !strcmp(name + 7, w)) return w;
  }
  return name;
}

static void take(LinkView *v, Table *t, size_t k) {
  LinkUnit *u = &v->units.data[k];
  u->taken = true;
  for (size_t i = 0; i < u->symbols.len; i++) {
    const LinkSymbol *s = &u->symbols.data[i];
    char *owned;
    bool reference = s->kind == SYM_UNDEFINED || s->kind == SYM_WEAK_UNDEFINED;
    Entry *e = lookup(t, reference ? link_view_wrapped(v, s->name, &owned) : (owned = NULL, s->name), true);
    free(owned);
    if (s->kind == SYM_UNDEFINED) e->wanted = true;
    else if (u->shared && e->definer < 0) e->definer = (long)k, e->shared = true;
    else if (u->shared) continue;
    else if (s->kind == SYM_STRONG && !e->strong) e->definer = (long)k, e->strong = true, e->shared = false; /* the first strong wins */
    else if (s->kind == SYM_STRONG && e->definer != (long)k && !v->twice && !v->muldefs) { /* ld: "multiple definition" */
      v->twice = xstrdup(s->name);
      v->twice_in[0] = e->definer, v->twice_in[1] = (long)k;
    }
    else if (s->kind == SYM_WEAK && (e->definer < 0 || e->shared)) e->definer = (long)k, e->shared = false;
  }
}

/* Whether member k defines a symbol that is wanted and not yet defined: ld then takes it. */
static bool needed(const LinkView *v, Table *t, size_t k) {
  const LinkUnit *u = &v->units.data[k];
  for (size_t i = 0; i < u->symbols.len; i++) {
    const LinkSymbol *s = &u->symbols.data[i];
    if (s->kind != SYM_STRONG && s->kind != SYM_WEAK) continue;
    Entry *e = lookup(t, s->name, false);
    if (e && e->wanted && e->definer < 0) return true;
  }
  return false;
}

/* Searches the archive whose members begin at unit k (all sharing its argument) once, as ld does: until
 * no member is needed. Returns the index after it; *grew says whether it took a member. */
static size_t search_archive(LinkView *v, Table *t, size_t k, bool *grew) {
  size_t end = k;
  while (end < v->units.len && v->units.data[end].member && v->units.data[end].argument == v->units.data[k].argument) end++;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t m = k; m < end; m++)
      if (!v->units.data[m].taken && (v->units.data[m].whole || needed(v, t, m))) take(v, t, m), changed = *grew = true;
  }
  return end;
}

/* The units from first to end that are archive members of a --start-group: searched again, all of
 * them, until none gives a member (ld's -( -)). */
static void search_group(LinkView *v, Table *t, size_t first, size_t end) {
  for (bool again = true; again;) {
    again = false;
    for (size_t m = first; m < end;) m = v->units.data[m].member ? search_archive(v, t, m, &again) : m + 1;
  }
}

void link_view_resolve(LinkView *v) {
  Table *t = xcalloc(1, sizeof *t);
  v->table = t;
  for (size_t i = 0; i < v->forced.len; i++) lookup(t, v->forced.data[i], true)->wanted = true;
  size_t group_start = 0;
  for (size_t k = 0; k < v->units.len;) {
    LinkUnit *u = &v->units.data[k];
    int group = u->group;
    if (group && (k == 0 || v->units.data[k - 1].group != group)) group_start = k;
    bool grew = false;
    size_t next = u->member ? search_archive(v, t, k, &grew) : (take(v, t, k), k + 1);
    if (group && (next == v->units.len || v->units.data[next].group != group)) search_group(v, t, group_start, next);
    k = next;
  }
}

void link_view_note_untaken(const LinkView *v) {
  const Table *t = v->table;
  for (size_t i = 0; t && i < t->cap; i++) {
    const Entry *e = &t->slots[i];
    if (!e->name || !e->wanted || e->definer >= 0) continue;
    for (size_t k = 0; k < v->units.len; k++) {
      const LinkUnit *u = &v->units.data[k];
      bool defines = false;
      for (size_t s = 0; !u->taken && s < u->symbols.len && !defines; s++)
        defines = (u->symbols.data[s].kind == SYM_STRONG || u->symbols.data[s].kind == SYM_WEAK) && !strcmp(u->symbols.data[s].name, e->name);
      if (!defines) continue;
      fprintf(stderr, "parad-cc: note: '%s' is defined in %s, which ld does not take where its archive stands on the "
                      "line (nothing before it used '%s' yet): put the archive after the files that use it, or "
                      "group the archives with -Wl,--start-group ... -Wl,--end-group\n", e->name, u->origin, e->name);
      break;
    }
  }
}

bool link_unit_merged(const LinkUnit *u) { return u->taken && u->ir.len && (u->direct || u->member); }

const LinkUnit *link_view_definer(const LinkView *v, const char *name) {
  Entry *e = v->table ? lookup(v->table, name, false) : NULL;
  return e && e->definer >= 0 ? &v->units.data[e->definer] : NULL;
}

void link_view_free(LinkView *v) {
  for (size_t k = 0; k < v->units.len; k++) {
    LinkUnit *u = &v->units.data[k];
    for (size_t i = 0; i < u->symbols.len; i++) free(u->symbols.data[i].name);
    vec_free(&u->symbols);
    for (size_t i = 0; i < u->ir.len; i++) embed_free(&u->ir.data[i]);
    vec_free(&u->ir);
    free(u->origin);
  }
  vec_free(&v->units);
  for (size_t i = 0; i < v->wrapped.len; i++) free((char *)v->wrapped.data[i]);
  vec_free(&v->wrapped);
  for (size_t i = 0; i < v->forced.len; i++) free((char *)v->forced.data[i]);
  vec_free(&v->forced);
  free(v->twice);
  v->twice = NULL;
  Table *t = v->table;
  if (t) {
    for (size_t i = 0; i < t->cap; i++) free(t->slots[i].name);
    free(t->slots);
    free(t);
  }
  v->table = NULL;
}
