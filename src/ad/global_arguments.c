/* Derivatives with respect to memory the function also reads by name (see the header). */
#include "ad/global_arguments.h"

#include <llvm-c/DebugInfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/checkpoint.h"
#include "ad/global_blocks.h"
#include "ir/diag.h"
#include "ir/ir.h"

enum { MOST_GLOBALS = 64, MOST_DEPTH = 8 };

/* The globals of floats v names, through constant expressions, into floats; the pointer globals whose
 * heap blocks get shadows of their own (ad/global_blocks.h) into blocks. */
static void named_globals(LLVMValueRef v, ValueList *floats, ValueList *blocks, int depth) {
  if (depth > MOST_DEPTH || !v) return;
  if (LLVMIsAGlobalVariable(v)) {
    const char *name = LLVMGetValueName(v);
    LLVMTypeRef t = LLVMGlobalGetValueType(v);
    ValueList *out = ir_contains_fp(t) ? floats : ir_is_ptr(t) && global_block_qualifies(v) ? blocks : NULL;
    if (out && !strstr(name, ".parad.") && !ir_list_has(out, v) && out->len < MOST_GLOBALS) vec_push(out, v);
    return;
  }
  if (!LLVMIsAConstantExpr(v)) return;
  for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++) named_globals(LLVMGetOperand(v, i), floats, blocks, depth + 1);
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

static char *message(const Request *r, unsigned p, bool field, const char *global, bool block) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(r->fn); /* the source's name (not an -O0 copy's) */
  LLVMValueRef first = entry ? LLVMGetFirstInstruction(entry) : NULL;
  const char *fn = first ? diag_source_function(first) : LLVMGetValueName(r->fn);
  return xasprintf("%s: argument #%u of '%s' %s into %s '%s', which '%s' also reads %s: the derivative would "
                   "miss what goes through those reads; pass the values in an array of their own, or read them "
                   "only through the argument",
                   r->entry, p + 1, fn, field ? "holds a pointer" : "points", block ? "the block held by the pointer global" : "the global variable", global,
                   fn, block ? "through the global" : "by name");
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
    char *text = message(r, p, field, LLVMGetValueName(G), false);
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

/* The checks of one pointer: against the globals of floats, and the blocks of the pointer globals (the
 * runtime knows their extents). */
static void check_pointer(LLVMBuilderRef b, const Request *r, unsigned p, bool field, LLVMValueRef v,
                          const ValueList *globals, const ValueList *blocks) {
  LLVMModuleRef m = LLVMGetGlobalParent(r->fn);
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), params[3] = {ptr, ptr, ptr};
  LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(c), params, 3, 0);
  if (globals->len) check_arrays(b, r, p, field, v, globals);
  for (size_t g = 0; g < blocks->len; g++) {
    LLVMValueRef G = blocks->data[g], callee = LLVMGetNamedFunction(m, "__parad_rt_argument_in_block");
    if (!global_block_read_at_entry(r->fn, G)) continue; /* set before read: what it held before is not read */
    if (!callee) callee = LLVMAddFunction(m, "__parad_rt_argument_in_block", type);
    char *text = message(r, p, field, LLVMGetValueName(G), true);
    LLVMValueRef args[3] = {v, LLVMBuildLoad2(b, ptr, G, ""), LLVMBuildGlobalStringPtr(b, text, "parad.message")};
    free(text);
    LLVMBuildCall2(b, type, callee, args, 3, "");
  }
}

int request_check_global_arguments(LLVMBuilderRef b, const Request *r) {
  /* a checkpointed loop's step, run by Parad's own requests: its arguments are the loop's variables, whose
     pointers into globals are the program's own (their shadows follow them) */
  if (checkpoint_is_runner(LLVMGetBasicBlockParent(LLVMGetInstructionParent(r->call)))) return 0;
  ValueMap reached;
  vmap_init(&reached);
  request_functions_from(r->fn, &reached);
  ValueList globals = {0}, blocks = {0};
  for (size_t k = 0; k < reached.cap; k++) {
    LLVMValueRef fn = reached.keys ? (LLVMValueRef)reached.keys[k] : NULL;
    if (!fn || !vmap_has(&reached, fn)) continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        for (int o = 0, n = LLVMGetNumOperands(i); o < n; o++) named_globals(LLVMGetOperand(i, o), &globals, &blocks, 0);
  }
  vmap_free(&reached);
  int errors = 0;
  LLVMTypeRef ptr = LLVMPointerTypeInContext(LLVMGetModuleContext(LLVMGetGlobalParent(r->fn)), 0);
  for (unsigned p = 0, np = LLVMCountParams(r->fn); p < np && globals.len + blocks.len; p++) {
    if ((r->activity[p] != ACT_DUP && r->activity[p] != ACT_DUPNONEED) || !ir_is_ptr(LLVMTypeOf(LLVMGetParam(r->fn, p))))
      continue;
    LLVMValueRef arg = LLVMGetArgOperand(r->call, request_arg_index(r, p)), known = constant_global(arg);
    if (known) { /* decided now */
      if (ir_list_has(&globals, known)) {
        char *text = message(r, p, false, LLVMGetValueName(known), false);
        diag_error_plain(r->call, "%s", text);
        free(text);
        errors++;
      }
      continue;
    }
    if (!unseen_local(ir_strip_pointer_casts(arg), r->call, 0)) /* a local no global can hold */
      check_pointer(b, r, p, false, arg, &globals, &blocks);
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
      check_pointer(b, r, p, true, LLVMBuildLoad2(b, ptr, field, ""), &globals, &blocks);
    }
  }
  vec_free(&blocks);
  vec_free(&globals);
  return errors;
}
