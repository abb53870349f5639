/* Shared variables no one reads after their region. A gradient does not need the value its function
 * returns: after inlining, the forking code of a region that sums an energy or a loss into a reduction
 * variable never reads that variable again. The region still computes the sum, because its function
 * reaches the variable through a parameter: the optimiser sees a store into memory someone else may read,
 * and keeps the store and everything feeding it (the Lennard-Jones energy of every pair within the cut-off,
 * a division and seven multiplications each, in a forward sweep that only has to record which pairs
 * were within it). Enzyme removes such primal work from its augmented forward pass too.
 *
 * Where a fork passes a local of the forking function that the function only ever writes (stores into it,
 * lifetime markers, this fork), and the outlined function (called from this fork only, and the functions it
 * passes the address on to, each called once) reads that memory only to write back what it read (a
 * reduction's `shared += private`), the stores are dead: they are deleted, and the optimiser then removes
 * what fed them. The address itself may still be compared or noted (the shared-memory notes take it as an
 * integer); it may not be stored anywhere, nor passed to anything else, since a reverse sweep could then
 * read the memory through it. */
#include "omp/omp.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

enum { MAX_DEPTH = 4, MAX_VALUES = 256 };

static bool single_use(LLVMValueRef v) {
  LLVMUseRef u = LLVMGetFirstUse(v);
  return u && !LLVMGetNextUse(u);
}

static bool is_plain_access(LLVMValueRef inst) { return !LLVMGetVolatile(inst) && LLVMGetOrdering(inst) <= LLVMAtomicOrderingUnordered; }

/* Whether v, read from p, flows only through arithmetic into stores into p (seen: the values walked). */
static bool only_written_back(LLVMValueRef v, LLVMValueRef p, ValueList *seen) {
  for (size_t i = 0; i < seen->len; i++)
    if (seen->data[i] == v) return true; /* a phi's cycle */
  if (seen->len >= MAX_VALUES) return false;
  vec_push(seen, v);
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAStoreInst(user)) {
      if (LLVMGetOperand(user, 1) != p || LLVMGetOperand(user, 0) != v || !is_plain_access(user)) return false;
      continue;
    }
    bool arithmetic = LLVMIsABinaryOperator(user) || LLVMIsAUnaryOperator(user) || LLVMIsACastInst(user) ||
                      LLVMIsAPHINode(user) || (LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) != v);
    if (!arithmetic && ir_is_call(user)) {
      const char *name = ir_called_name(user);
      arithmetic = !strncmp(name, "llvm.fmuladd.", 13) || !strncmp(name, "llvm.fma.", 9) ||
                   !strncmp(name, "llvm.maxnum.", 12) || !strncmp(name, "llvm.minnum.", 12) ||
                   !strncmp(name, "llvm.fabs.", 10);
    }
    if (!arithmetic || !only_written_back(user, p, seen)) return false;
  }
  return true;
}

/* Whether fn's parameter `param` is only written through (reads written back), in fn and in the
 * functions it passes it on to: its stores into *dead. */
static bool only_writes(LLVMValueRef fn, unsigned param, ValueList *dead, int depth) {
  if (depth > MAX_DEPTH || LLVMIsDeclaration(fn) || param >= LLVMCountParams(fn)) return false;
  LLVMValueRef p = LLVMGetParam(fn, param);
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAStoreInst(user)) {
      if (LLVMGetOperand(user, 0) == p || !is_plain_access(user)) return false; /* the address kept somewhere */
      vec_push(dead, user);
    } else if (LLVMIsALoadInst(user)) {
      ValueList seen = {0};
      bool ok = is_plain_access(user) && only_written_back(user, p, &seen);
      vec_free(&seen);
      if (!ok) return false;
    } else if (LLVMIsAAtomicRMWInst(user)) {
      if (LLVMGetOperand(user, 0) != p || LLVMGetFirstUse(user) || LLVMGetOrdering(user) > LLVMAtomicOrderingMonotonic)
        return false; /* a stronger ordering also orders other memory */
      vec_push(dead, user);
    } else if (LLVMIsAPtrToIntInst(user) || LLVMIsAICmpInst(user)) {
      continue; /* the address, not the memory */
    } else if (ir_is_call(user)) {
      const char *name = ir_called_name(user);
      if (!strncmp(name, "llvm.lifetime.", 14)) continue;
      LLVMValueRef callee = ir_called_function(user);
      if (!callee || LLVMIsDeclaration(callee) || LLVMGetLinkage(callee) != LLVMInternalLinkage || !single_use(callee) ||
          LLVMIsFunctionVarArg(LLVMGlobalGetValueType(callee)))
        return false;
      for (unsigned a = 0, n = ir_num_call_args(user); a < n; a++)
        if (LLVMGetArgOperand(user, a) == p && !only_writes(callee, a, dead, depth + 1)) return false;
    } else {
      return false;
    }
  }
  return true;
}

/* Whether v is a local the forking function only writes, passed to fork once. */
static bool unread_local(LLVMValueRef v, LLVMValueRef fork) {
  if (!LLVMIsAAllocaInst(v)) return false;
  unsigned forks = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (user == fork) {
      forks++;
      continue;
    }
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) != v && is_plain_access(user)) continue;
    if (ir_is_lifetime_marker(user)) continue;
    return false;
  }
  return forks == 1;
}

unsigned omp_drop_unread_shared_writes(LLVMModuleRef m) {
  unsigned dropped = 0;
  ValueList forks = {0};
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (ir_is_call(i) && omp_is_runtime_call(i) && omp_classify(i) == OMP_FORK) vec_push(&forks, i);
  for (size_t f = 0; f < forks.len; f++) {
    LLVMValueRef fork = forks.data[f], outlined = omp_fork_outlined(fork);
    if (!outlined || LLVMIsDeclaration(outlined) || LLVMGetLinkage(outlined) != LLVMInternalLinkage || !single_use(outlined) ||
        ir_fn_has_attr(outlined, "optnone"))
      continue;
    for (unsigned a = OMP_FORK_FIRST_ARG, n = ir_num_call_args(fork); a < n; a++) {
      if (!unread_local(LLVMGetArgOperand(fork, a), fork)) continue;
      ValueList dead = {0};
      if (only_writes(outlined, a - OMP_FORK_FIRST_ARG + OMP_OUTLINED_FIRST_PARAM, &dead, 0)) {
        for (size_t k = 0; k < dead.len; k++) LLVMInstructionEraseFromParent(dead.data[k]);
        dropped += dead.len > 0;
      }
      vec_free(&dead);
    }
  }
  vec_free(&forks);
  return dropped;
}
