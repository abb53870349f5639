#include "ir/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "ir/ir.h"
#include "ir/util.h"

static int error_count;
static FILE *stream;
typedef struct {
  StrBuf kept;
  bool trying;
} Capture;

static struct {
  Capture *data;
  size_t len, cap;
} captures; /* innermost last */

void diag_set_stream(void *file) { stream = file; }

static LLVMValueRef request_call;
void diag_set_request(LLVMValueRef call) { request_call = call; }

/* Lines already printed: a construct refused by each generator that meets it (forward and reverse mode of one
 * function, a region's function in two requests) is reported once. */
static VEC(char *) printed;

static void print_once(const char *text) {
  for (const char *line = text; *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
    bool said = false;
    for (size_t i = 0; i < printed.len && !said; i++)
      said = strlen(printed.data[i]) == len && !strncmp(printed.data[i], line, len);
    if (!said) {
      char *copy = xmalloc(len + 1);
      memcpy(copy, line, len), copy[len] = 0;
      fputs(copy, stream ? stream : stderr);
      vec_push(&printed, copy);
    }
    line += len;
  }
}

int diag_error_count(void) { return error_count; }

void diag_capture_begin(bool trying) {
  Capture c = {{0}, trying};
  vec_push(&captures, c);
}

char *diag_capture_end(void) {
  Capture ended = captures.data[--captures.len];
  StrBuf kept = ended.kept;
  /* a trying capture's errors did not count: an outer holding capture must not print them */
  bool pass_on = !ended.trying || diag_trying();
  if (captures.len && kept.len && pass_on) sb_printf(&captures.data[captures.len - 1].kept, "%s", kept.s);
  if (!captures.len) vec_free(&captures);
  return kept.s ? kept.s : xstrdup("");
}

void diag_capture_release(void) {
  char *kept = diag_capture_end(); /* an outer capture has them now */
  if (!captures.len) print_once(kept);
  free(kept);
}

char *diag_capture_drop(void) {
  Capture ended = captures.data[--captures.len];
  if (!captures.len) vec_free(&captures);
  return ended.kept.s ? ended.kept.s : xstrdup("");
}

bool diag_trying(void) {
  for (size_t i = 0; i < captures.len; i++)
    if (captures.data[i].trying) return true;
  return false;
}

/* Text for wherever messages go now: the innermost capture, else the stream. */
static void emit(const char *text) {
  StrBuf *kept = captures.len ? &captures.data[captures.len - 1].kept : NULL;
  if (!kept) print_once(text);
  else if (!kept->s || !strstr(kept->s, text)) sb_printf(kept, "%s", text); /* held: once, as when printed */
}

void diag_replay(const char *kept) {
  if (!kept || !*kept) return;
  if (!diag_trying())
    for (const char *p = kept; (p = strstr(p, " error: ")); p++) error_count++;
  emit(kept);
}

/* The optimiser's messages printed so far in this context (one pipeline run). */
static VEC(char *) optimiser_said;

static void optimiser_message(LLVMDiagnosticInfoRef info, void *unused) {
  (void)unused;
  LLVMDiagnosticSeverity severity = LLVMGetDiagInfoSeverity(info);
  char *text = LLVMGetDiagInfoDescription(info);
  const char *prefix = severity == LLVMDSError ? "error" : severity == LLVMDSWarning ? "warning" : "note";
  bool said = false;
  for (size_t i = 0; i < optimiser_said.len && !said; i++) said = !strcmp(optimiser_said.data[i], text);
  if (severity == LLVMDSError) {
    fprintf(stream ? stream : stderr, "%s: %s\n", prefix, text); /* as LLVM's own handler: the end */
    exit(1);
  }
  if (severity != LLVMDSRemark && !said && strncmp(text, "<unknown>:0:0", 13)) {
    StrBuf line = {0};
    sb_printf(&line, "%s: %s\n", prefix, text);
    emit(line.s);
    sb_free(&line);
    vec_push(&optimiser_said, xstrdup(text));
  }
  LLVMDisposeMessage(text);
}

void diag_handle_optimiser(LLVMContextRef ctx) {
  for (size_t i = 0; i < optimiser_said.len; i++) free(optimiser_said.data[i]);
  optimiser_said.len = 0;
  LLVMContextSetDiagnosticHandler(ctx, optimiser_message, NULL);
}

static LLVMValueRef function_of(LLVMValueRef v) {
  if (!v) return NULL;
  if (LLVMIsAFunction(v)) return v;
  if (LLVMIsAInstruction(v)) return LLVMGetBasicBlockParent(LLVMGetInstructionParent(v));
  if (LLVMIsAArgument(v)) return LLVMGetParamParent(v);
  return NULL;
}

/* An instruction the optimiser made may have no location: borrow the nearest one in its block. In a
 * function without any (a header's __nodebug__ helper, _mm256_max_pd, not inlined at -O0), the place that
 * calls it. */
static bool uses(LLVMValueRef inst, LLVMValueRef v) {
  for (int k = 0, n = LLVMGetNumOperands(inst); k < n; k++)
    if (LLVMGetOperand(inst, (unsigned)k) == v) return true;
  return false;
}

static LLVMValueRef located_within(LLVMValueRef inst, int depth) {
  if (!inst || !LLVMIsAInstruction(inst)) return inst;
  if (LLVMGetDebugLocLine(inst)) return inst;
  /* a store into a stack slot (clang's own, of a parameter or a parallel region's captured variable):
     where the slot is first used, the region that takes it or the line that reads it */
  LLVMValueRef slot = LLVMIsAStoreInst(inst) ? LLVMGetOperand(inst, 1) : NULL;
  if (slot && LLVMIsAAllocaInst(slot)) {
    for (LLVMValueRef i = LLVMGetNextInstruction(inst); i; i = LLVMGetNextInstruction(i))
      if (LLVMGetDebugLocLine(i) && !ir_is_debug_intrinsic(i) && uses(i, slot)) return i;
    for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(LLVMGetInstructionParent(inst)); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (LLVMGetDebugLocLine(i) && !ir_is_debug_intrinsic(i) && uses(i, slot)) return i;
  }
  for (LLVMValueRef i = LLVMGetPreviousInstruction(inst); i; i = LLVMGetPreviousInstruction(i))
    if (LLVMGetDebugLocLine(i)) return i;
  for (LLVMValueRef i = LLVMGetNextInstruction(inst); i; i = LLVMGetNextInstruction(i))
    if (LLVMGetDebugLocLine(i)) return i;
  /* a block without lines (-O0's one dispatch of every computed goto): where a jump into it is */
  for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(LLVMGetInstructionParent(inst))); u; u = LLVMGetNextUse(u))
    if (LLVMIsAInstruction(LLVMGetUser(u)) && LLVMGetDebugLocLine(LLVMGetUser(u))) return LLVMGetUser(u);
  LLVMValueRef fn = function_of(inst);
  if (LLVMGetDebugLocLine(fn) || depth >= 4) return fn;
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u), at = LLVMIsACallInst(call) ? located_within(call, depth + 1) : NULL;
    if (at && LLVMIsAInstruction(at) && LLVMGetDebugLocLine(at)) return at;
  }
  return fn;
}

static LLVMValueRef located(LLVMValueRef inst) { return located_within(inst, 0); }

/* Operand k of a debug-info node, as metadata. */
static LLVMMetadataRef md_operand(LLVMContextRef ctx, LLVMMetadataRef node, unsigned k) {
  LLVMValueRef v = LLVMMetadataAsValue(ctx, node);
  unsigned n = LLVMGetMDNodeNumOperands(v);
  if (k >= n) return NULL;
  LLVMValueRef ops[16];
  if (n > 16) return NULL;
  LLVMGetMDNodeOperands(v, ops);
  return ops[k] ? LLVMValueAsMetadata(ops[k]) : NULL;
}

/* clang names the function of a parallel region f.omp_outlined (or .omp_outlined.N, _debug__), and an
 * optimised copy made at -O0 is f.optimised (IR_COPY_SUFFIX): the user wrote it in f. */
static const char *source_name(const char *s) {
  static char names[8][256];
  static unsigned next;
  const char *cut = strstr(s, ".omp_outlined");
  if (!cut) cut = strstr(s, IR_COPY_SUFFIX);
  if (!cut) cut = strstr(s, ".apart"); /* the `noalias` copy of ad/apart.c */
  if (!cut || cut == s || (size_t)(cut - s) >= sizeof names[0]) return s;
  char *copy = names[next++ % 8];
  memcpy(copy, s, (size_t)(cut - s));
  copy[cut - s] = 0;
  return copy;
}

const char *diag_program_name(LLVMValueRef fn) { return source_name(LLVMGetValueName(fn)); }

char *diag_place(LLVMValueRef inst) {
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst);
  unsigned len = 0;
  const char *file = loc ? LLVMDIFileGetFilename(LLVMDIScopeGetFile(LLVMDILocationGetScope(loc)), &len) : "";
  return xasprintf("%.*s:%u", (int)len, file, loc ? LLVMDILocationGetLine(loc) : 0);
}

const char *diag_source_function(LLVMValueRef inst) {
  LLVMValueRef fn = function_of(inst);
  const char *fallback = fn ? source_name(LLVMGetValueName(fn)) : "?";
  if (!inst || !LLVMIsAInstruction(inst)) return fallback;
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst);
  if (!loc) return fallback;
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(inst));
  LLVMMetadataRef scope = LLVMDILocationGetScope(loc);
  /* Walk lexical blocks out to their subprogram: its name (operand 2) is the source function. */
  for (int depth = 0; scope && depth < 64; depth++) {
    LLVMMetadataKind kind = LLVMGetMetadataKind(scope);
    if (kind == LLVMDISubprogramMetadataKind) {
      LLVMMetadataRef name = md_operand(ctx, scope, 2);
      if (!name) return fallback;
      unsigned len;
      const char *s = LLVMGetMDString(LLVMMetadataAsValue(ctx, name), &len);
      return s && len ? source_name(s) : fallback;
    }
    if (kind != LLVMDILexicalBlockMetadataKind && kind != LLVMDILexicalBlockFileMetadataKind) break;
    scope = md_operand(ctx, scope, 1);
  }
  return fallback;
}

static void report_at(LLVMValueRef at, const char *file, unsigned len, unsigned line, unsigned col, int how,
                      const char *fmt, va_list ap);
/* How a message is reported (bits): the function it is in named after it; a warning (printed, not counted). */
enum { NAME_FUNCTION = 1, WARNING = 2 };

/* by name: a function made while derivatives are generated may be gone by the time they are asked for */
static VEC(char *) error_functions;

static void note_function(LLVMValueRef fn) {
  size_t n;
  const char *name = fn ? LLVMGetValueName2(fn, &n) : NULL;
  if (name && n) vec_push(&error_functions, xstrdup(name));
}

size_t diag_error_functions(char ***out) {
  *out = error_functions.data;
  return error_functions.len;
}

void diag_error_functions_clear(void) {
  for (size_t i = 0; i < error_functions.len; i++) free(error_functions.data[i]);
  vec_free(&error_functions);
}

static void report(LLVMValueRef at, int how, const char *fmt, va_list ap) {
  LLVMValueRef where = located(at);
  if (request_call && !(where && (LLVMIsAInstruction(where) || LLVMIsAFunction(where)) && LLVMGetDebugLocLine(where)))
    where = located(request_call); /* Parad's own code, without lines: the request that asks for its derivative */
  unsigned len = 0, line = 0, col = 0;
  const char *file = NULL;
  if (where && (LLVMIsAInstruction(where) || LLVMIsAFunction(where))) {
    file = LLVMGetDebugLocFilename(where, &len);
    line = LLVMGetDebugLocLine(where);
    if (LLVMIsAInstruction(where)) col = LLVMGetDebugLocColumn(where);
  }
  /* a helper without locations (immintrin.h's at -O0) is reported at its call: named by the caller too */
  bool caller = where && LLVMIsAInstruction(where) && function_of(where) != function_of(at);
  report_at(caller ? where : at, file, len, line, col, how, fmt, ap);
}

/* libstdc++'s demangler (the tool links it: LLVM is C++). */
char *__cxa_demangle(const char *mangled, char *out, size_t *length, int *status);

/* A message's quoted C++ symbols ('_ZN4phys6kernelEd') as the source spells them, the symbol after it
 * (the name a registration or the linker uses): 'phys::kernel(double)' (_ZN4phys6kernelEd). */
static void demangle_quoted(StrBuf *msg, const char *text) {
  const char *p = text;
  for (const char *q; (q = strstr(p, "'_Z"));) {
    const char *end = strchr(q + 1, '\'');
    if (!end) break;
    char *name = xasprintf("%.*s", (int)(end - q - 1), q + 1);
    int status = -1;
    char *plain = __cxa_demangle(name, NULL, NULL, &status);
    sb_printf(msg, "%.*s", (int)(q - p), p);
    if (!status && plain) sb_printf(msg, "'%s' (%s)", plain, name);
    else sb_printf(msg, "'%s'", name);
    free(plain);
    free(name);
    p = end + 1;
  }
  sb_printf(msg, "%s", p);
}

static void report_at(LLVMValueRef at, const char *file, unsigned len, unsigned line, unsigned col, int how,
                      const char *fmt, va_list ap) {
  StrBuf msg = {0}, said = {0};
  const char *kind = how & WARNING ? "warning" : "error";
  if (file && len && line) {
    if (col)
      sb_printf(&msg, "%.*s:%u:%u: %s: ", (int)len, file, line, col, kind);
    else
      sb_printf(&msg, "%.*s:%u: %s: ", (int)len, file, line, kind);
  } else {
    sb_printf(&msg, "parad: %s: ", kind);
  }
  sb_vprintf(&said, fmt, ap);
  demangle_quoted(&msg, said.s ? said.s : "");
  sb_free(&said);
  if ((how & NAME_FUNCTION) && function_of(at)) sb_printf(&msg, " in function '%s'", diag_source_function(at));
  sb_printf(&msg, "\n");
  if (!diag_trying() && !(how & WARNING)) {
    error_count++;
    note_function(function_of(at));
  }
  emit(msg.s);
  sb_free(&msg);
}

void diag_error(LLVMValueRef at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(at, NAME_FUNCTION, fmt, ap);
  va_end(ap);
}

void diag_warning(LLVMValueRef at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(at, NAME_FUNCTION | WARNING, fmt, ap);
  va_end(ap);
}

void diag_error_plain(LLVMValueRef at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(at, 0, fmt, ap);
  va_end(ap);
}

void diag_error_at_line(const char *file, unsigned line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_at(NULL, file, file ? (unsigned)strlen(file) : 0, line, 0, 0, fmt, ap);
  va_end(ap);
}
