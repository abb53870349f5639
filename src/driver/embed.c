/* The IR objects carry (see embed.h): its serialised form, adding it to an object, reading it back from
 * an object (link_inputs.c finds the objects of archives).
 *
 * Serialised: "PARADIR1", then u32 fields (flags, opt), then strings (u32 length, bytes): cwd, source,
 * language; u32 count and the front end's flags; u32 count and code generation's flags; u64 length and
 * the bitcode. Little-endian, as the machines Parad targets. */
#include "driver/embed.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/Object.h>

#include "driver/exec.h"

static const char MAGIC[8] = {'P', 'A', 'R', 'A', 'D', 'I', 'R', '1'};
enum { F_REQUESTS = 1, F_DEFERRED = 2, F_LINE_INFO = 4, F_VECTORIZE = 8, F_SLP = 16, F_UNROLL = 32 };
static const char SECTION[] = ".parad.ir";

/* ---- writing ---- */

static void put_u32(FILE *f, uint32_t v) { fwrite(&v, sizeof v, 1, f); }

static void put_str(FILE *f, const char *s) {
  uint32_t n = s ? (uint32_t)strlen(s) : 0;
  put_u32(f, n);
  if (n) fwrite(s, 1, n, f);
}

static void put_list(FILE *f, const OwnedList *l) {
  put_u32(f, (uint32_t)l->len);
  for (size_t i = 0; i < l->len; i++) put_str(f, l->data[i]);
}

int embed_into_object(const char *object, const EmbeddedIR *ir, bool verbose) {
  char *blob = exec_temp_path(object, ".parad.ir");
  FILE *f = fopen(blob, "wb");
  if (!f) {
    fprintf(stderr, "parad-cc: error: cannot write %s\n", blob);
    free(blob);
    return 1;
  }
  uint32_t flags = (ir->requests ? F_REQUESTS : 0) | (ir->deferred ? F_DEFERRED : 0) | (ir->line_info ? F_LINE_INFO : 0) |
                   (ir->vectorize ? F_VECTORIZE : 0) | (ir->slp_vectorize ? F_SLP : 0) | (ir->unroll ? F_UNROLL : 0);
  fwrite(MAGIC, 1, sizeof MAGIC, f);
  put_u32(f, flags);
  put_u32(f, (uint32_t)ir->opt);
  put_str(f, ir->cwd);
  put_str(f, ir->source);
  put_str(f, ir->language);
  put_list(f, &ir->frontend);
  put_list(f, &ir->codegen);
  uint64_t n = ir->bitcode_len;
  fwrite(&n, sizeof n, 1, f);
  fwrite(ir->bitcode, 1, ir->bitcode_len, f);
  int bad = ferror(f);
  bad |= fclose(f);
  if (bad) {
    fprintf(stderr, "parad-cc: error: cannot write %s\n", blob);
    free(blob);
    return 1;
  }
  StrList cmd = {0};
  char *add = xasprintf("%s=%s", SECTION, blob), *flags_arg = xasprintf("%s=exclude", SECTION);
  vec_push(&cmd, exec_llvm_tool("llvm-objcopy"));
  vec_push(&cmd, "--add-section");
  vec_push(&cmd, add);
  vec_push(&cmd, "--set-section-flags");
  vec_push(&cmd, flags_arg);
  vec_push(&cmd, object);
  int rc = exec_run(&cmd, verbose);
  vec_free(&cmd);
  free(add);
  free(flags_arg);
  free(blob);
  return rc;
}

/* ---- reading ---- */

typedef struct {
  const char *p, *end;
  bool bad;
} Reader;

static uint32_t get_u32(Reader *r) {
  uint32_t v = 0;
  if (r->end - r->p < 4) r->bad = true;
  else memcpy(&v, r->p, 4), r->p += 4;
  return v;
}

static char *get_str(Reader *r) {
  uint32_t n = get_u32(r);
  if (r->bad || (size_t)(r->end - r->p) < n) {
    r->bad = true;
    return xstrdup("");
  }
  char *s = xasprintf("%.*s", (int)n, r->p);
  r->p += n;
  return s;
}

static void get_list(Reader *r, OwnedList *l) {
  uint32_t n = get_u32(r);
  for (uint32_t i = 0; i < n && !r->bad; i++) vec_push(l, get_str(r));
}

/* One serialised IR at data; *used gets its length. */
static bool parse(const char *data, size_t size, const char *origin, EmbeddedIR *ir, size_t *used) {
  memset(ir, 0, sizeof *ir);
  if (size < sizeof MAGIC || memcmp(data, MAGIC, sizeof MAGIC)) return false;
  Reader r = {data + sizeof MAGIC, data + size, false};
  uint32_t flags = get_u32(&r);
  ir->requests = flags & F_REQUESTS, ir->deferred = flags & F_DEFERRED, ir->line_info = flags & F_LINE_INFO;
  ir->vectorize = flags & F_VECTORIZE, ir->slp_vectorize = flags & F_SLP, ir->unroll = flags & F_UNROLL;
  ir->opt = (char)get_u32(&r);
  ir->cwd = get_str(&r);
  ir->source = get_str(&r);
  ir->language = get_str(&r);
  get_list(&r, &ir->frontend);
  get_list(&r, &ir->codegen);
  uint64_t n = 0;
  if (r.end - r.p < 8) r.bad = true;
  else memcpy(&n, r.p, 8), r.p += 8;
  if (r.bad || (uint64_t)(r.end - r.p) < n) {
    fprintf(stderr, "parad-cc: warning: %s carries damaged Parad IR; it is linked as plain code\n", origin);
    embed_free(ir);
    return false;
  }
  ir->bitcode = xmalloc(n ? n : 1);
  memcpy(ir->bitcode, r.p, n);
  ir->bitcode_len = n;
  ir->origin = xstrdup(origin);
  *used = (size_t)(r.p + n - data);
  return true;
}

void embed_read_object(const char *data, size_t size, const char *origin, bool member, EmbeddedList *out) {
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(data, size, origin, 0);
  char *err = NULL;
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMBinaryRef bin = LLVMCreateBinary(buf, ctx, &err);
  if (!bin) { /* not an object: a linker script, a shared library stub... */
    LLVMDisposeMessage(err);
  } else if (LLVMBinaryGetType(bin) >= LLVMBinaryTypeELF32L) {
    LLVMSectionIteratorRef s = LLVMObjectFileCopySectionIterator(bin);
    for (; !LLVMObjectFileIsSectionIteratorAtEnd(bin, s); LLVMMoveToNextSection(s)) {
      const char *name = LLVMGetSectionName(s);
      if (!name || strcmp(name, SECTION)) continue;
      /* one IR a file; several when objects were linked into one (ld -r), maybe padded apart */
      const char *p = LLVMGetSectionContents(s), *end = p + LLVMGetSectionSize(s);
      for (size_t used; p < end; p += used) {
        EmbeddedIR ir;
        while (p < end && !*p) p++;
        if (!parse(p, (size_t)(end - p), origin, &ir, &used)) break;
        ir.member = member;
        vec_push(out, ir);
      }
    }
    LLVMDisposeSectionIterator(s);
  }
  if (bin) LLVMDisposeBinary(bin);
  LLVMDisposeMemoryBuffer(buf);
  LLVMContextDispose(ctx);
}

void embed_free(EmbeddedIR *ir) {
  free(ir->cwd);
  free(ir->source);
  free(ir->language);
  for (size_t i = 0; i < ir->frontend.len; i++) free(ir->frontend.data[i]);
  for (size_t i = 0; i < ir->codegen.len; i++) free(ir->codegen.data[i]);
  vec_free(&ir->frontend);
  vec_free(&ir->codegen);
  free(ir->bitcode);
  free(ir->origin);
  memset(ir, 0, sizeof *ir);
}
