/* Derivatives with respect to memory the function also reads by name (see the header). */
#include "ad/global_arguments.h"

#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/checkpoint.h"
#include "ad/constants.h"
#include "ad/global_blocks.h"
#include "ir/diag.h"
#include "ir/ir.h"

enum { MOST_GLOBALS = 64, MOST_DEPTH = 8 };

/* The globals the code names: of floats, the pointer globals whose heap blocks get shadows of their own
 * (ad/global_blocks.h), and the other globals holding pointers (tables: `static slot slots[8]` of
 * structs with a context pointer each, read at a variable index). */
typedef struct {
  ValueList floats, blocks, tables;
} Named;

/* Whether constant c holds a pointer to data (not only functions and nulls). */
static bool data_pointers(LLVMValueRef c, int depth) {
  if (!c || depth > MOST_DEPTH || !ir_contains_ptr(LLVMTypeOf(c)) || LLVMIsNull(c) || LLVMIsUndef(c)) return false;
  if (LLVMIsAFunction(c)) return false;
  if (ir_is_ptr(LLVMTypeOf(c))) return LLVMIsAConstantExpr(c) ? data_pointers(LLVMGetOperand(c, 0), depth + 1) : true;
  LLVMTypeRef t = LLVMTypeOf(c);
  unsigned n = LLVMGetTypeKind(t) == LLVMStructTypeKind  ? LLVMCountStructElementTypes(t)
               : LLVMGetTypeKind(t) == LLVMArrayTypeKind ? (unsigned)LLVMGetArrayLength2(t)
                                                          : 0;
  for (unsigned i = 0; i < n; i++)
    if (data_pointers(LLVMGetAggregateElement(c, i), depth + 1)) return true;
  return false;
}

/* A global the program defines holding pointers, set at run time or to data (not C++'s tables: _ZTV,
 * _ZTI, _ZTS, _ZTT, whose data is the compiler's). */
static bool table_of_pointers(LLVMValueRef g) {
  if (!ir_contains_ptr(LLVMGlobalGetValueType(g)) || LLVMIsDeclaration(g) || LLVMIsThreadLocal(g)) return false;
  return !LLVMIsGlobalConstant(g) || (strncmp(LLVMGetValueName(g), "_ZT", 3) && data_pointers(LLVMGetInitializer(g), 0));
}

static void named_globals(LLVMValueRef v, Named *out, int depth) {
  if (depth > MOST_DEPTH || !v) return;
  if (LLVMIsAGlobalVariable(v)) {
    LLVMTypeRef t = LLVMGlobalGetValueType(v);
    if (strstr(LLVMGetValueName(v), ".parad.")) return;
    ValueList *pointers = ir_is_ptr(t) && global_block_qualifies(v) ? &out->blocks : table_of_pointers(v) ? &out->tables : NULL;
    if (ir_contains_fp(t) && !ir_list_has(&out->floats, v) && out->floats.len < MOST_GLOBALS) vec_push(&out->floats, v);
    if (pointers && !ir_list_has(pointers, v) && pointers->len < MOST_GLOBALS) vec_push(pointers, v);
    return;
  }
  if (!LLVMIsAConstantExpr(v)) return;
  for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++) named_globals(LLVMGetOperand(v, i), out, depth + 1);
}

/* Whether code of a reached function stores a pointer into g, or copies into it, at any offset (address v
 * of g): what g held on entry is then not what the code reads, and is not checked. */
static bool set_inside(LLVMValueRef v, const ValueMap *reached, int depth) {
  if (depth > MOST_DEPTH) return true;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAConstantExpr(user) || LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) || LLVMIsAPHINode(user) ||
        LLVMIsASelectInst(user)) {
      if (set_inside(user, reached, depth + 1)) return true;
      continue;
    }
    if (!LLVMIsAInstruction(user) || !vmap_has(reached, LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)))) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == v && ir_contains_ptr(LLVMTypeOf(LLVMGetOperand(user, 0)))) return true;
    if (ir_is_call(user) && !LLVMIsALoadInst(user)) { /* a copy into it, or a function given its address */
      const char *callee = ir_called_name(user);
      if (!callee || strncmp(callee, "llvm.dbg", 8)) return true;
    }
  }
  return false;
}

/* The byte offsets of the pointers in a value of type t (at base), at most MOST_OFFSETS; false beyond. */
enum { MOST_OFFSETS = 256 };
typedef VEC(unsigned) Offsets;
static bool pointer_offsets(LLVMTargetDataRef td, LLVMTypeRef t, unsigned long long base, Offsets *out) {
  if (!ir_contains_ptr(t)) return true;
  if (ir_is_ptr(t)) {
    if (out->len >= MOST_OFFSETS) return false;
    vec_push(out, (unsigned)base);
    return true;
  }
  if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
    for (unsigned i = 0, n = LLVMCountStructElementTypes(t); i < n; i++)
      if (!pointer_offsets(td, LLVMStructGetTypeAtIndex(t, i), base + LLVMOffsetOfElement(td, t, i), out)) return false;
    return true;
  }
  if (LLVMGetTypeKind(t) != LLVMArrayTypeKind) return false; /* pointers in a vector */
  LLVMTypeRef e = LLVMGetElementType(t);
  for (unsigned long long i = 0, n = LLVMGetArrayLength2(t); i < n; i++)
    if (!pointer_offsets(td, e, base + i * LLVMABISizeOfType(td, e), out)) return false;
  return true;
}

/* The global p points into at compile time (p itself, or a constant offset into it), or NULL. */
static LLVMValueRef constant_global(LLVMValueRef p) {
  for (int depth = 0; p && depth < MOST_DEPTH; depth++) {
    if (LLVMIsAGlobalVariable(p)) return p;
    if (!LLVMIsAConstantExpr(p)) return NULL;
    LLVMOpcode op = LLVMGetConstOpcode(p);
    if (op != LLVMGetElementPtr && op != LLVMBitCast && op != LLVMAddrSpaceCast) return NULL;
    p = LLVMGetOperand(p, 0);
  }
  return NULL;
}

typedef enum { IN_GLOBAL, IN_BLOCK, IN_HELD, IN_TABLE } Where;

static char *message(const Request *r, unsigned p, bool field, const char *global, Where where) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(r->fn); /* the source's name (not an -O0 copy's) */
  LLVMValueRef first = entry ? LLVMGetFirstInstruction(entry) : NULL;
  const char *fn = first ? diag_source_function(first) : LLVMGetValueName(r->fn);
  return xasprintf("%s: argument #%u of '%s' %s into %s '%s'%s, which '%s' also reads %s: the derivative would "
                   "miss what goes through those reads; pass the values in an array of their own, or read them "
                   "only through the argument",
                   r->entry, p + 1, fn, field ? "holds a pointer" : "points",
                   where == IN_BLOCK   ? "the block held by the pointer global"
                   : where == IN_HELD  ? "memory that a pointer in the block held by the pointer global"
                   : where == IN_TABLE ? "memory that a pointer in the global variable"
                                       : "the global variable",
                   global, where == IN_TABLE || where == IN_HELD ? " points to" : "", fn,
                   where == IN_GLOBAL ? "by name" : "through the global");
}

/* Stops the program, before the derivative, where arg (argument #p, or a pointer it holds: field) points
 * into one of the globals. */
static void check_arrays(LLVMBuilderRef b, const Request *r, unsigned p, bool field, LLVMValueRef arg, const ValueList *globals) {
  LLVMModuleRef m = LLVMGetGlobalParent(r->fn);
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i32 = LLVMInt32TypeInContext(c), ptr = LLVMPointerTypeInContext(c, 0);
  LLVMTypeRef stop_params[2] = {i32, ptr}, stop_type = LLVMFunctionType(LLVMVoidTypeInContext(c), stop_params, 2, 0);
  /* which global it points into (the last that holds it), -1 for none; the runtime stops on one */
  LLVMValueRef at = LLVMBuildPtrToInt(b, arg, i64, ""), which = LLVMConstInt(i32, (unsigned long long)-1, 1);
  LLVMValueRef *texts = xcalloc(globals->len, sizeof *texts);
  for (size_t g = 0; g < globals->len; g++) {
    LLVMValueRef G = globals->data[g];
    unsigned long long size = ir_type_size(m, LLVMGlobalGetValueType(G));
    LLVMValueRef inside = LLVMBuildICmp(b, LLVMIntULT, LLVMBuildSub(b, at, LLVMBuildPtrToInt(b, G, i64, ""), ""),
                                        LLVMConstInt(i64, size, 0), "");
    which = LLVMBuildSelect(b, inside, LLVMConstInt(i32, g, 0), which, "");
    char *text = message(r, p, field, LLVMGetValueName(G), IN_GLOBAL);
    texts[g] = LLVMBuildGlobalStringPtr(b, text, "parad.message");
    free(text);
  }
  LLVMValueRef table = LLVMAddGlobal(m, LLVMArrayType2(ptr, globals->len), "parad.messages");
  LLVMSetInitializer(table, LLVMConstArray2(ptr, texts, globals->len));
  LLVMSetGlobalConstant(table, 1);
  LLVMSetLinkage(table, LLVMPrivateLinkage);
  free(texts);
  LLVMValueRef callee = LLVMGetNamedFunction(m, "__parad_rt_argument_in_global");
  if (!callee) callee = LLVMAddFunction(m, "__parad_rt_argument_in_global", stop_type);
  LLVMValueRef args[2] = {which, table};
  LLVMBuildCall2(b, stop_type, callee, args, 2, "");
}

static bool constant_indices(LLVMValueRef gep) {
  for (int k = 1, n = LLVMGetNumOperands(gep); k < n; k++)
    if (!LLVMIsAConstantInt(LLVMGetOperand(gep, k))) return false;
  return true;
}

/* A local variable whose address goes nowhere but into the request and the memory intrinsics: no global
 * can hold it. One whose address is stored (main calling a setter `bind(x)` inlined, `U = x`) may be the
 * block a pointer global holds, and is checked like any pointer. */
static bool unseen_local(LLVMValueRef v, LLVMValueRef request, int depth) {
  if (depth == 0 && !LLVMIsAAllocaInst(v)) return false;
  if (depth > MOST_DEPTH) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (user == request || LLVMIsALoadInst(user) || ir_is_lifetime_marker(user) || ir_is_debug_intrinsic(user)) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) != v) continue;
    if (ir_is_call(user) && LLVMIsAIntrinsicInst(user) && strncmp(ir_called_name(user), "llvm.mem", 8) == 0) continue;
    if ((LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user)) && unseen_local(user, request, depth + 1)) continue;
    return false;
  }
  return true;
}

/* The table checks made: each one's message, then its table. */
static ValueList table_checks;

void global_arguments_finish(LLVMModuleRef m) {
  /* each call, and its copies in derivatives of the functions that hold it (forward over reverse mode),
     found by its message */
  LLVMValueRef check = LLVMGetNamedFunction(m, "__parad_rt_argument_in_table");
  for (LLVMUseRef u = check ? LLVMGetFirstUse(check) : NULL; u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!ir_is_call(call) || LLVMGetNumArgOperands(call) != 8) continue;
    for (size_t i = 0; i + 1 < table_checks.len; i += 2)
      if (LLVMGetArgOperand(call, 7) == table_checks.data[i]) LLVMSetOperand(call, 2, table_checks.data[i + 1]);
  }
  vec_free(&table_checks);
}

/* Stops the program, before the derivative, where a pointer table G holds points into the memory arg
 * points to: its extent as far as the compiler knows it (llvm.objectsize, after the program's own
 * allocation is inlined), else arg itself. */
static void check_table(LLVMBuilderRef b, const Request *r, unsigned p, bool field, LLVMValueRef arg, LLVMValueRef G) {
  LLVMModuleRef m = LLVMGetGlobalParent(r->fn);
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  LLVMTypeRef t = LLVMGlobalGetValueType(G), element = LLVMGetTypeKind(t) == LLVMArrayTypeKind ? LLVMGetElementType(t) : t;
  unsigned long long count = element == t ? 1 : LLVMGetArrayLength2(t);
  Offsets offsets = {0};
  if (!pointer_offsets(td, element, 0, &offsets) || !offsets.len) {
    vec_free(&offsets);
    return;
  }
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i32 = LLVMInt32TypeInContext(c), i1 = LLVMInt1TypeInContext(c),
              ptr = LLVMPointerTypeInContext(c, 0);
  LLVMValueRef *cells = xcalloc(offsets.len, sizeof *cells);
  for (size_t k = 0; k < offsets.len; k++) cells[k] = LLVMConstInt(i32, offsets.data[k], 0);
  LLVMValueRef table = LLVMAddGlobal(m, LLVMArrayType2(i32, offsets.len), "parad.pointer.offsets");
  LLVMSetInitializer(table, LLVMConstArray2(i32, cells, offsets.len));
  LLVMSetGlobalConstant(table, 1);
  LLVMSetLinkage(table, LLVMPrivateLinkage);
  free(cells);
  LLVMValueRef extent = LLVMConstInt(i64, 0, 0);
  if (!field) {
    LLVMTypeRef over[2] = {i64, ptr};
    LLVMValueRef args[4] = {arg, LLVMConstInt(i1, 1, 0), LLVMConstInt(i1, 0, 0), LLVMConstInt(i1, 1, 0)};
    extent = ir_call_intrinsic(b, "llvm.objectsize", over, 2, args, 4);
  }
  char *text = message(r, p, field, LLVMGetValueName(G), IN_TABLE);
  /* G's address goes in once every derivative is made (global_arguments_finish): a use of it here would
     tell the analyses of the requests still to come that its address escapes */
  LLVMValueRef args[8] = {arg, extent, LLVMConstNull(ptr), LLVMConstInt(i64, count, 0), LLVMConstInt(i64, LLVMABISizeOfType(td, element), 0),
                          table, LLVMConstInt(i32, offsets.len, 0), LLVMBuildGlobalStringPtr(b, text, "parad.message")};
  LLVMTypeRef params[8] = {ptr, i64, ptr, i64, i64, ptr, i32, ptr};
  ir_call_named(b, "__parad_rt_argument_in_table", LLVMFunctionType(LLVMVoidTypeInContext(c), params, 8, 0), args, 8);
  vec_push(&table_checks, args[7]);
  vec_push(&table_checks, G);
  free(text);
  vec_free(&offsets);
}

/* The checks of one pointer: against the globals of floats, the blocks of the pointer globals (the
 * runtime knows their extents), and the pointer tables. */
static void check_pointer(LLVMBuilderRef b, const Request *r, unsigned p, bool field, LLVMValueRef v, const Named *named) {
  LLVMModuleRef m = LLVMGetGlobalParent(r->fn);
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), params[3] = {ptr, ptr, ptr};
  LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(c), params, 3, 0);
  const ValueList *globals = &named->floats, *blocks = &named->blocks;
  if (globals->len) check_arrays(b, r, p, field, v, globals);
  for (size_t g = 0; g < named->tables.len; g++) check_table(b, r, p, field, v, named->tables.data[g]);
  for (size_t g = 0; g < blocks->len; g++) {
    LLVMValueRef G = blocks->data[g], callee = LLVMGetNamedFunction(m, "__parad_rt_argument_in_block");
    if (!global_block_read_at_entry(r->fn, G)) continue; /* set before read: what it held before is not read */
    if (!callee) callee = LLVMAddFunction(m, "__parad_rt_argument_in_block", type);
    char *text = message(r, p, field, LLVMGetValueName(G), IN_BLOCK);
    LLVMValueRef held = LLVMBuildLoad2(b, ptr, G, ""), args[3] = {v, held, LLVMBuildGlobalStringPtr(b, text, "parad.message")};
    free(text);
    LLVMBuildCall2(b, type, callee, args, 3, "");
    /* and the blocks the pointers that block holds point to (`M->p`), one level down */
    long long offsets[16];
    size_t n = global_block_held_offsets(r->fn, G, offsets, 16);
    for (size_t k = 0; k < n; k++) {
      LLVMTypeRef i64 = LLVMInt64TypeInContext(c), in_params[4] = {ptr, ptr, i64, ptr};
      text = message(r, p, field, LLVMGetValueName(G), IN_HELD);
      LLVMValueRef in_args[4] = {v, held, LLVMConstInt(i64, (unsigned long long)offsets[k], 0), LLVMBuildGlobalStringPtr(b, text, "parad.message")};
      free(text);
      ir_call_named(b, "__parad_rt_argument_in_held", LLVMFunctionType(LLVMVoidTypeInContext(c), in_params, 4, 0), in_args, 4);
    }
  }
}

/* A pointer the constant argument param holds at a constant offset, which fn reads (`pb->params`), at the
 * call as b builds it from the argument's value arg: each in turn (*cursor: where the search goes on), or
 * NULL past the last. */
static LLVMValueRef next_held_pointer(LLVMBuilderRef b, LLVMValueRef param, LLVMValueRef arg, LLVMUseRef *cursor) {
  LLVMTypeRef ptr = LLVMPointerTypeInContext(LLVMGetTypeContext(LLVMTypeOf(param)), 0); /* a null record: none */
  for (LLVMUseRef u = *cursor ? LLVMGetNextUse(*cursor) : LLVMGetFirstUse(param); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    *cursor = u;
    if (LLVMIsALoadInst(user) && ir_is_ptr(LLVMTypeOf(user))) return ir_load_unless_null(b, arg, arg, ptr);
    if (!LLVMIsAGetElementPtrInst(user) || LLVMGetOperand(user, 0) != param || !constant_indices(user)) continue;
    bool loaded = false;
    for (LLVMUseRef v = LLVMGetFirstUse(user); v && !loaded; v = LLVMGetNextUse(v))
      loaded = LLVMIsALoadInst(LLVMGetUser(v)) && ir_is_ptr(LLVMTypeOf(LLVMGetUser(v)));
    if (!loaded) continue;
    unsigned n = LLVMGetNumOperands(user) - 1;
    LLVMValueRef *idx = xcalloc(n, sizeof *idx);
    for (unsigned k = 0; k < n; k++) idx[k] = LLVMGetOperand(user, k + 1);
    LLVMValueRef field = LLVMBuildGEP2(b, LLVMGetGEPSourceElementType(user), arg, idx, n, "");
    free(idx);
    return ir_load_unless_null(b, arg, field, ptr);
  }
  return NULL;
}

/* Stops the program where pointer v, a pointer constant argument #q holds, points into the memory an
 * argument with a shadow points to (its extent as llvm.objectsize knows it, else its first byte; no more
 * than its shadow's: where the parameters come first in one block and the data after them, `block = [theta
 * | x]` with a gradient of theta's size and the data's struct, passed constant, pointing at `block + 2`, the
 * rest of the block was taken as the argument's at -O2, which knows the block's size, and the program
 * stopped; beyond its shadow the argument has no derivative to miss). */
static void check_against_shadowed(LLVMBuilderRef b, const Request *r, unsigned q, LLVMValueRef v) {
  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(r->fn));
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i64 = LLVMInt64TypeInContext(c), i1 = LLVMInt1TypeInContext(c);
  LLVMTypeRef params[4] = {ptr, ptr, i64, ptr}, type = LLVMFunctionType(LLVMVoidTypeInContext(c), params, 4, 0);
  LLVMTypeRef types[2] = {i64, ptr};
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(r->fn);
  LLVMValueRef first = entry ? LLVMGetFirstInstruction(entry) : NULL;
  const char *fn = first ? diag_source_function(first) : LLVMGetValueName(r->fn);
  for (unsigned p = 0, np = LLVMCountParams(r->fn); p < np; p++) {
    if ((r->activity[p] != ACT_DUP && r->activity[p] != ACT_DUPNONEED) || !ir_is_ptr(LLVMTypeOf(LLVMGetParam(r->fn, p)))) continue;
    LLVMValueRef arg = LLVMGetArgOperand(r->call, request_arg_index(r, p));
    LLVMValueRef size_args[4] = {arg, LLVMConstInt(i1, 1, 0), LLVMConstInt(i1, 0, 0), LLVMConstInt(i1, 1, 0)};
    char *text = xasprintf("%s: argument #%u of '%s', passed as constant, holds a pointer into the memory argument #%u "
                           "points to, which '%s' reads through it: the derivative would miss what goes through those "
                           "reads; pass the pointer alone, or the constant argument with a shadow",
                           r->entry, q + 1, fn, p + 1, fn);
    LLVMValueRef shadow = LLVMGetArgOperand(r->call, request_arg_index(r, p) + 1);
    LLVMValueRef shadow_args[4] = {shadow, LLVMConstInt(i1, 0, 0), LLVMConstInt(i1, 0, 0), LLVMConstInt(i1, 1, 0)}; /* unknown: all ones */
    LLVMValueRef sizes[2] = {ir_call_intrinsic(b, "llvm.objectsize", types, 2, size_args, 4),
                             ir_call_intrinsic(b, "llvm.objectsize", types, 2, shadow_args, 4)};
    LLVMValueRef args[4] = {v, arg, ir_call_intrinsic(b, "llvm.umin", &i64, 1, sizes, 2), LLVMBuildGlobalStringPtr(b, text, "parad.message")};
    free(text);
    ir_call_named(b, "__parad_rt_constant_holds_argument", type, args, 4);
  }
}

/* Constant arguments holding pointers into memory an argument with a shadow points to (`loss(pb->params,
 * pb)` with `pb` constant): the reads through the constant's pointer carry no derivative. The program stops
 * before the derivative where one does. (The same pointer passed twice, once constant, `f(x, x)`, is taken
 * as meant: a partial derivative.) */
static void check_constant_arguments(LLVMBuilderRef b, const Request *r) {
  for (unsigned q = 0, np = LLVMCountParams(r->fn); q < np; q++) {
    LLVMValueRef param = LLVMGetParam(r->fn, q);
    if (r->activity[q] != ACT_CONST || !ir_is_ptr(LLVMTypeOf(param))) continue;
    LLVMUseRef cursor = NULL;
    LLVMValueRef held, value = LLVMGetArgOperand(r->call, request_arg_index(r, q));
    while ((held = next_held_pointer(b, param, value, &cursor))) check_against_shadowed(b, r, q, held);
  }
}

int request_check_global_arguments(LLVMBuilderRef b, const Request *r) {
  /* a checkpointed loop's step, run by Parad's own requests: its arguments are the loop's variables, whose
     pointers into globals are the program's own (their shadows follow them) */
  if (checkpoint_is_runner(LLVMGetBasicBlockParent(LLVMGetInstructionParent(r->call)))) return 0;
  ValueMap reached;
  vmap_init(&reached);
  request_functions_from(r->fn, &reached);
  check_constant_arguments(b, r);
  Named named = {0};
  for (size_t k = 0; k < reached.cap; k++) {
    LLVMValueRef fn = reached.keys ? (LLVMValueRef)reached.keys[k] : NULL;
    if (!fn || !vmap_has(&reached, fn)) continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        for (int o = 0, n = LLVMGetNumOperands(i); o < n; o++) named_globals(LLVMGetOperand(i, o), &named, 0);
  }
  size_t kept = 0; /* a table set inside, or whose pointers carry no derivative (a qsort key): not compared */
  for (size_t t = 0; t < named.tables.len; t++)
    if (!set_inside(named.tables.data[t], &reached, 0) && !ad_global_pointers_read_need_none(named.tables.data[t]))
      named.tables.data[kept++] = named.tables.data[t];
  named.tables.len = kept;
  kept = 0; /* a block global whose pointers carry no derivative (a qsort key set to a global array) neither */
  for (size_t t = 0; t < named.blocks.len; t++)
    if (!ad_global_pointers_read_need_none(named.blocks.data[t])) named.blocks.data[kept++] = named.blocks.data[t];
  named.blocks.len = kept;
  vmap_free(&reached);
  const ValueList *globals = &named.floats;
  int errors = 0;
  LLVMTypeRef ptr = LLVMPointerTypeInContext(LLVMGetModuleContext(LLVMGetGlobalParent(r->fn)), 0);
  for (unsigned p = 0, np = LLVMCountParams(r->fn); p < np && globals->len + named.blocks.len + named.tables.len; p++) {
    if ((r->activity[p] != ACT_DUP && r->activity[p] != ACT_DUPNONEED) || !ir_is_ptr(LLVMTypeOf(LLVMGetParam(r->fn, p))))
      continue;
    LLVMValueRef arg = LLVMGetArgOperand(r->call, request_arg_index(r, p)), known = constant_global(arg);
    if (known && ir_list_has(globals, known)) { /* decided now */
      char *text = message(r, p, false, LLVMGetValueName(known), IN_GLOBAL);
      diag_error_plain(r->call, "%s", text);
      free(text);
      errors++;
      continue;
    }
    /* (a global the code does not name may still be what a table's pointers point to) */
    if (known || !unseen_local(ir_strip_pointer_casts(arg), r->call, 0)) /* a local no global can hold */
      check_pointer(b, r, p, false, arg, &named);
    /* the pointers a struct it points to holds (`m->c`), read on entry */
    for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(r->fn)); i; i = LLVMGetNextInstruction(i)) {
      LLVMValueRef at = LLVMIsALoadInst(i) && ir_is_ptr(LLVMTypeOf(i)) ? LLVMGetOperand(i, 0) : NULL;
      LLVMValueRef field;
      if (at && LLVMIsAGetElementPtrInst(at) && LLVMGetOperand(at, 0) == LLVMGetParam(r->fn, p) && constant_indices(at)) {
        unsigned n = LLVMGetNumOperands(at) - 1;
        LLVMValueRef *idx = xcalloc(n, sizeof *idx);
        for (unsigned k = 0; k < n; k++) idx[k] = LLVMGetOperand(at, k + 1);
        field = LLVMBuildGEP2(b, LLVMGetGEPSourceElementType(at), arg, idx, n, "");
        free(idx);
      } else if (at && at == LLVMGetParam(r->fn, p)) {
        field = arg;
      } else {
        continue;
      }
      check_pointer(b, r, p, true, LLVMBuildLoad2(b, ptr, field, ""), &named);
    }
  }
  vec_free(&named.floats);
  vec_free(&named.blocks);
  vec_free(&named.tables);
  return errors;
}
