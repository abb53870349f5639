/* Library reads into the program's memory, in the body the generators differentiate (see library_reads.h). */
#include "ad/library_reads.h"

#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/util.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

typedef enum { READS_ITEMS, READS_BYTES, READS_FORMATTED } ReadKind;

/* buf: the destination's argument (READS_FORMATTED: the format's); size, count: the item size's and the
 * item count's (READS_BYTES: count only). The fortified forms (-D_FORTIFY_SOURCE) take the buffer's size
 * after it. */
static const struct {
  const char *name;
  ReadKind kind;
  unsigned buf, size, count;
} reads[] = {
    {"fread", READS_ITEMS, 0, 1, 2},       {"fread_unlocked", READS_ITEMS, 0, 1, 2},
    {"__fread_chk", READS_ITEMS, 0, 2, 3}, {"__fread_unlocked_chk", READS_ITEMS, 0, 2, 3},
    {"read", READS_BYTES, 1, 0, 2},        {"__read_chk", READS_BYTES, 1, 0, 2},
    {"pread", READS_BYTES, 1, 0, 2},       {"pread64", READS_BYTES, 1, 0, 2},
    {"sscanf", READS_FORMATTED, 1, 0, 0},  {"__isoc99_sscanf", READS_FORMATTED, 1, 0, 0},
    {"fscanf", READS_FORMATTED, 1, 0, 0},  {"__isoc99_fscanf", READS_FORMATTED, 1, 0, 0},
    {"scanf", READS_FORMATTED, 0, 0, 0},   {"__isoc99_scanf", READS_FORMATTED, 0, 0, 0},
    {"__isoc23_sscanf", READS_FORMATTED, 1, 0, 0}, {"__isoc23_fscanf", READS_FORMATTED, 1, 0, 0},
    {"__isoc23_scanf", READS_FORMATTED, 0, 0, 0},
};

static int read_index(LLVMValueRef call) {
  LLVMValueRef fn = ir_is_call(call) ? ir_called_function(call) : NULL;
  if (!fn || !LLVMIsDeclaration(fn)) return -1; /* the library's, not a function of the program named so */
  const char *name = ir_called_name(call);
  for (size_t i = 0; i < COUNT(reads); i++)
    if (!strcmp(name, reads[i].name)) return (int)i;
  return -1;
}

static bool is_i64(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 64;
}

/* ---- the scanf family's formats ---- */

enum { MAX_CONVERSIONS = 16 };

/* A conversion of a format that writes a number: the call's argument it writes, how many assignments
 * come before it (it is made when the call returns more), and the number's type: a float's or a
 * double's, or an integer's of `bits` (an int field beside floats in a struct with derivatives: the
 * integer's address too is memory with a shadow). */
typedef struct {
  unsigned arg, assigned;
  bool is_float, is_double;
  unsigned bits;
} Conversion;

/* The text of a constant format, or NULL. */
static const char *format_text(LLVMValueRef v, size_t *len) {
  v = ir_strip_pointer_casts(v);
  if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr && LLVMGetNumOperands(v) == 3 &&
      LLVMIsNull(LLVMGetOperand(v, 1)) && LLVMIsNull(LLVMGetOperand(v, 2)))
    v = LLVMGetOperand(v, 0);
  if (!LLVMIsAGlobalVariable(v) || !LLVMIsGlobalConstant(v) || !LLVMGetInitializer(v)) return NULL;
  LLVMValueRef init = LLVMGetInitializer(v);
  return LLVMIsConstantString(init) ? LLVMGetAsString(init, len) : NULL;
}

/* The number conversions of the call's format (its arguments from `first` on); -1 where the format is not
 * constant or has what this reading does not follow (positional arguments, long double, too many).
 * Strings, characters and pointers stay where they go. */
static int number_conversions(LLVMValueRef call, unsigned format_arg, Conversion *out) {
  size_t len;
  const char *s = format_text(LLVMGetArgOperand(call, format_arg), &len);
  if (!s) return -1;
  unsigned arg = format_arg + 1, assigned = 0, nargs = ir_num_call_args(call);
  int n = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] != '%') continue;
    if (++i < len && s[i] == '%') continue;
    bool suppressed = i < len && s[i] == '*';
    i += suppressed;
    while (i < len && s[i] >= '0' && s[i] <= '9') i++;
    if (i < len && s[i] == '$') return -1;
    unsigned longs = 0, halves = 0;
    bool is_long_double = false, wide = false;
    while (i < len && strchr("hlLqjztm", s[i])) {
      longs += s[i] == 'l';
      halves += s[i] == 'h';
      is_long_double |= s[i] == 'L' || s[i] == 'q';
      wide |= s[i] == 'j' || s[i] == 'z' || s[i] == 't';
      i++;
    }
    if (i >= len) return -1;
    char conv = s[i];
    if (conv == '[') { /* a set: a ']' first is one of its characters */
      i += i + 1 < len && s[i + 1] == '^';
      i += i + 1 < len && s[i + 1] == ']';
      while (i + 1 < len && s[i + 1] != ']') i++;
      i++;
    }
    if (suppressed) continue;
    if (arg >= nargs) return -1;
    bool is_float = strchr("aAeEfFgG", conv) != NULL, is_int = strchr("diouxXn", conv) != NULL;
    if (is_float || is_int) {
      if (n == MAX_CONVERSIONS || (is_float && is_long_double)) return -1;
      unsigned bits = longs || wide || is_long_double ? 64 : halves == 1 ? 16 : halves > 1 ? 8 : 32;
      out[n++] = (Conversion){arg, assigned, is_float, is_float && longs > 0, is_float ? 0 : bits};
    }
    arg++;
    assigned += conv != 'n'; /* %n stores a count, not an assignment */
  }
  return n;
}

bool library_read_rewrites(LLVMValueRef call) {
  int k = read_index(call);
  if (k < 0) return false;
  Conversion conv[MAX_CONVERSIONS];
  switch (reads[k].kind) {
  case READS_ITEMS:
    return is_i64(call) && is_i64(LLVMGetArgOperand(call, reads[k].size)) && is_i64(LLVMGetArgOperand(call, reads[k].count));
  case READS_BYTES: return is_i64(call) && is_i64(LLVMGetArgOperand(call, reads[k].count));
  case READS_FORMATTED: return ir_is_int(LLVMTypeOf(call)) && number_conversions(call, reads[k].buf, conv) > 0;
  }
  return false;
}

/* The call again at the builder, argument i replaced by with[i] where that is not NULL. */
static LLVMValueRef call_again(LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef *with) {
  unsigned n = ir_num_call_args(call);
  LLVMValueRef *args = xcalloc(n + 1, sizeof *args);
  for (unsigned i = 0; i < n; i++) args[i] = with[i] ? with[i] : LLVMGetArgOperand(call, i);
  LLVMValueRef r = LLVMBuildCall2(b, LLVMGetCalledFunctionType(call), LLVMGetCalledValue(call), args, n, "");
  free(args);
  LLVMInstructionSetDebugLoc(r, LLVMInstructionGetDebugLoc(call));
  return r;
}

LLVMValueRef library_read_rewrite(LLVMBuilderRef b, LLVMBasicBlockRef entry, LLVMValueRef call) {
  int k = read_index(call);
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(call));
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i64 = LLVMInt64TypeInContext(c);
  unsigned n = ir_num_call_args(call);
  LLVMValueRef *with = xcalloc(n + 1, sizeof *with), r;
  if (reads[k].kind != READS_FORMATTED) {
    /* into a heap block of the size asked for, then as much as was read copied where it was asked */
    LLVMValueRef count = LLVMGetArgOperand(call, reads[k].count);
    LLVMValueRef size = reads[k].kind == READS_ITEMS ? LLVMGetArgOperand(call, reads[k].size) : NULL;
    LLVMValueRef bytes = size ? LLVMBuildMul(b, size, count, "") : count;
    LLVMValueRef buffer = ir_call_named(b, "malloc", LLVMFunctionType(ptr, &i64, 1, 0), &bytes, 1);
    with[reads[k].buf] = buffer;
    r = call_again(b, call, with);
    LLVMValueRef got = size ? LLVMBuildMul(b, r, size, "")
                            : LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, r, LLVMConstInt(i64, 0, 0), ""), r,
                                              LLVMConstInt(i64, 0, 0), "");
    LLVMBuildMemCpy(b, LLVMGetArgOperand(call, reads[k].buf), 1, buffer, 1, got);
    ir_call_named(b, "free", LLVMFunctionType(LLVMVoidTypeInContext(c), &ptr, 1, 0), &buffer, 1);
    free(with);
    return r;
  }
  /* each number conversion into a local of its own, stored where it was asked when it was made (an
     integer's local holds the old value first, as %n may be stored where the assignments before it fail) */
  Conversion conv[MAX_CONVERSIONS];
  int nconv = number_conversions(call, reads[k].buf, conv);
  LLVMBuilderRef eb = LLVMCreateBuilderInContext(c);
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  if (first) LLVMPositionBuilderBefore(eb, first);
  else LLVMPositionBuilderAtEnd(eb, entry);
  LLVMValueRef locals[MAX_CONVERSIONS];
  for (int i = 0; i < nconv; i++) {
    LLVMTypeRef t = !conv[i].is_float ? LLVMIntTypeInContext(c, conv[i].bits)
                    : conv[i].is_double ? LLVMDoubleTypeInContext(c)
                                        : LLVMFloatTypeInContext(c);
    with[conv[i].arg] = locals[i] = LLVMBuildAlloca(eb, t, "parad.read");
    if (!conv[i].is_float) {
      LLVMValueRef old = LLVMBuildLoad2(b, t, LLVMGetArgOperand(call, conv[i].arg), "");
      LLVMSetAlignment(old, 1);
      LLVMBuildStore(b, old, locals[i]);
    }
  }
  LLVMDisposeBuilder(eb);
  r = call_again(b, call, with);
  for (int i = 0; i < nconv; i++) {
    LLVMTypeRef t = LLVMGetAllocatedType(locals[i]);
    LLVMValueRef dst = LLVMGetArgOperand(call, conv[i].arg), read = LLVMBuildLoad2(b, t, locals[i], "");
    unsigned align = conv[i].is_float ? (conv[i].is_double ? 8 : 4) : 1;
    if (conv[i].is_float) {
      LLVMValueRef made = LLVMBuildICmp(b, LLVMIntSGT, r, LLVMConstInt(LLVMTypeOf(r), conv[i].assigned, 0), "");
      LLVMValueRef old = LLVMBuildLoad2(b, t, dst, "");
      LLVMSetAlignment(old, align);
      read = LLVMBuildSelect(b, made, read, old, "");
    }
    LLVMSetAlignment(LLVMBuildStore(b, read, dst), align);
  }
  free(with);
  return r;
}
