/* A task's private copies, found without a call. clang's task function finds its private copies (its
 * firstprivate values, an untied task's locals) by calling a function its entry passes it (the privates
 * map), which stores the address of each copy into a slot the task function passes. The light
 * optimisation inlines it; at -O0 nothing does, and through the indirect call the analyses would not know
 * what the copies hold (an untied task's loop counter, written there, would be taken for a float), nor
 * could a checkpointed step's notes follow it. Every call of the task function passes the same map, so
 * before differentiating the call is made direct, and then replaced by the addresses it computes. */
#include "omp/omp.h"

#include <llvm-c/DebugInfo.h>
#include <stdlib.h>

#include "ir/ir.h"
#include "ir/valuemap.h"

/* The parameter of fn that v is: itself, or (-O0) loaded from a slot that only ever holds it. */
static LLVMValueRef parameter_in(LLVMValueRef fn, LLVMValueRef v) {
  if (LLVMIsALoadInst(v) && LLVMIsAAllocaInst(LLVMGetOperand(v, 0))) {
    LLVMValueRef slot = LLVMGetOperand(v, 0), stored = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (LLVMIsALoadInst(user) || ir_is_debug_intrinsic(user)) continue;
      if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 1) != slot || (stored && stored != LLVMGetOperand(user, 0)))
        return NULL;
      stored = LLVMGetOperand(user, 0);
    }
    v = stored;
  }
  for (unsigned i = 0; v && i < LLVMCountParams(fn); i++)
    if (LLVMGetParam(fn, i) == v) return v;
  return NULL;
}

/* The function every call of fn passes as parameter i (NULL if fn is reached otherwise, or passes others). */
static LLVMValueRef passed_function(LLVMValueRef fn, unsigned i) {
  if (LLVMGetLinkage(fn) != LLVMInternalLinkage && LLVMGetLinkage(fn) != LLVMPrivateLinkage) return NULL;
  LLVMValueRef same = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!ir_is_call(call) || ir_called_function(call) != fn || i >= ir_num_call_args(call)) return NULL;
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    if (!LLVMIsAFunction(a) || (same && same != a)) return NULL;
    same = a;
  }
  return same;
}

/* Where slot (the caller's, -O0) is only passed to the map's call and read after it: its reads replaced
 * by the address the map stores there. */
static bool read_back(LLVMValueRef slot, LLVMValueRef call, LLVMValueRef address) {
  if (!LLVMIsAAllocaInst(slot)) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) { /* reads after the call, in its block */
    LLVMValueRef user = LLVMGetUser(u), i = call;
    if (user == call) continue;
    while (i && i != user) i = LLVMGetNextInstruction(i);
    if (!i || !LLVMIsALoadInst(user)) return false;
  }
  for (LLVMUseRef u = LLVMGetFirstUse(slot), next; u; u = next) {
    next = LLVMGetNextUse(u);
    LLVMValueRef load = LLVMGetUser(u);
    if (load == call) continue;
    LLVMReplaceAllUsesWith(load, address);
    LLVMInstructionEraseFromParent(load);
  }
  return true;
}

/* The call replaced by what the map does, where that is all it does (clang's maps): each out parameter
 * stored with the address of its private copy, computed in the caller from the copies' block. At -O0
 * the caller's reads of its slot become that address into the copies' struct, and the analyses see which
 * copy each read addresses and its type (an untied task's loop counter, written there, is an int). */
static void expand_map(LLVMValueRef call, LLVMValueRef map) {
  LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(map);
  /* a map returns nothing: a program's accessor of the same shape (`return x[0];`), called through a
     helper that is always given it, returns what it loads */
  if (!bb || LLVMGetNextBasicBlock(bb) || LLVMCountParams(map) < 1 || LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind)
    return;
  ValueList stores = {0};
  bool ok = true;
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && ok; i = LLVMGetNextInstruction(i)) {
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    if (op == LLVMStore && !LLVMIsAAllocaInst(LLVMGetOperand(i, 1))) { /* not a -O0 spill */
      LLVMValueRef out = parameter_in(map, LLVMGetOperand(i, 1)), at = LLVMGetOperand(i, 0);
      ok = out && out != LLVMGetParam(map, 0) && LLVMIsAGetElementPtrInst(at) &&
           parameter_in(map, LLVMGetOperand(at, 0)) == LLVMGetParam(map, 0);
      for (unsigned k = 1; ok && k < (unsigned)LLVMGetNumOperands(at); k++) ok = LLVMIsAConstantInt(LLVMGetOperand(at, k));
      vec_push(&stores, i);
    } else
      ok = op == LLVMAlloca || op == LLVMLoad || op == LLVMStore || op == LLVMGetElementPtr || op == LLVMRet ||
           ir_is_debug_intrinsic(i);
  }
  if (ok) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(call)));
    LLVMPositionBuilderBefore(b, call);
    for (size_t k = 0; k < stores.len; k++) {
      LLVMValueRef st = stores.data[k], at = LLVMGetOperand(st, 0), out = parameter_in(map, LLVMGetOperand(st, 1));
      ValueMap vm;
      vmap_init(&vm);
      vmap_put(&vm, LLVMGetOperand(at, 0), LLVMGetArgOperand(call, 0));
      LLVMValueRef copy = ir_clone_mapped(b, &vm, at);
      vmap_free(&vm);
      unsigned p = 0;
      while (LLVMGetParam(map, p) != out) p++;
      LLVMInstructionSetDebugLoc(copy, LLVMInstructionGetDebugLoc(call));
      if (!read_back(LLVMGetArgOperand(call, p), call, copy))
        LLVMInstructionSetDebugLoc(LLVMBuildStore(b, copy, LLVMGetArgOperand(call, p)), LLVMInstructionGetDebugLoc(call));
    }
    LLVMDisposeBuilder(b);
    LLVMInstructionEraseFromParent(call);
  }
  vec_free(&stores);
}

void omp_direct_private_maps(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (!ir_is_call(i) || ir_called_function(i) || LLVMIsAInlineAsm(LLVMGetCalledValue(i))) continue;
        LLVMValueRef p = parameter_in(f, LLVMGetCalledValue(i)), callee = NULL;
        for (unsigned k = 0; p && k < LLVMCountParams(f) && !callee; k++)
          if (LLVMGetParam(f, k) == p) callee = passed_function(f, k);
        if (!callee || LLVMGlobalGetValueType(callee) != LLVMGetCalledFunctionType(i)) continue;
        LLVMSetOperand(i, (unsigned)LLVMGetNumOperands(i) - 1, callee);
        LLVMValueRef call = i;
        i = LLVMGetPreviousInstruction(i); /* NULL: the first of the block */
        expand_map(call, callee);
        i = i ? i : LLVMGetFirstInstruction(bb);
      }
}
