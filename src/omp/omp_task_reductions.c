/* Task reductions in the open. A task with in_reduction (and each chunk of a task loop with reduction)
 * asks libomp for the running thread's private copy of the variable
 * (__kmpc_task_reduction_get_th_data) and updates that; libomp combines the copies into the variable
 * when the task group ends, out of Parad's sight. Before differentiating, the private copy of a sum
 * becomes the task's own: a local that starts at zero and is added into the variable atomically when the
 * task returns. A sum does not care how its terms are grouped, so the program computes the same, and
 * both modes follow the data as through any atomic update. libomp's own copies stay zero, so its
 * combining adds nothing. Other operators (products, max, min, declared reductions), array sections and
 * copies whose address escapes keep the runtime call, which the generators refuse. */
#include "omp/omp.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

enum { MAX_TYPES = 8 };

typedef struct {
  LLVMTypeRef summed[MAX_TYPES], other[MAX_TYPES]; /* the types of +'s combiners, and of the rest's */
  unsigned n_summed, n_other;
} Combiners;

static void note_type(LLVMTypeRef *list, unsigned *n, LLVMTypeRef t) {
  for (unsigned i = 0; i < *n; i++)
    if (list[i] == t) return;
  if (*n < MAX_TYPES) list[(*n)++] = t;
}

static bool listed_type(const LLVMTypeRef *list, unsigned n, LLVMTypeRef t) {
  for (unsigned i = 0; i < n; i++)
    if (list[i] == t) return true;
  return false;
}

/* clang's combiner of a + (of a scalar, or of an array section in a loop): every value it stores into
 * memory other than its own stack slots is an add of two loads. Returns the summed type, or NULL when the
 * combiner is anything else (then *type is the type it stores, if it stores one). */
static LLVMTypeRef summed_type(LLVMValueRef comb, LLVMTypeRef *type) {
  LLVMTypeRef sum = NULL;
  *type = NULL;
  bool plain = true;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(comb); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (ir_is_call(i)) plain &= ir_is_debug_intrinsic(i) || ir_is_lifetime_marker(i);
      if (!LLVMIsAStoreInst(i) || LLVMIsAAllocaInst(LLVMGetOperand(i, 1))) continue;
      LLVMValueRef v = LLVMGetOperand(i, 0);
      LLVMTypeRef t = LLVMTypeOf(v);
      if (!*type) *type = t;
      bool add = LLVMIsAInstruction(v) && (LLVMGetInstructionOpcode(v) == LLVMFAdd || LLVMGetInstructionOpcode(v) == LLVMAdd) &&
                 LLVMIsALoadInst(LLVMGetOperand(v, 0)) && LLVMIsALoadInst(LLVMGetOperand(v, 1));
      plain &= add && (!sum || sum == t);
      sum = t;
    }
  return plain ? sum : NULL;
}

static void collect_combiners(LLVMModuleRef m, Combiners *c) {
  memset(c, 0, sizeof *c);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) || strncmp(LLVMGetValueName(f), ".red_comb.", 10)) continue;
    LLVMTypeRef stored, sum = summed_type(f, &stored);
    if (sum) note_type(c->summed, &c->n_summed, sum);
    else if (stored) note_type(c->other, &c->n_other, stored);
    else c->n_other = MAX_TYPES + 1; /* nothing to tell it by: no type is safe */
  }
}

/* Memory a task block is filled from: the block, its shared part (whose address the block holds), or a
 * stack slot copied into it (clang fills a slot, then copies it into the block, at -O0 and before the
 * light optimisation). */
static bool fills_task_block(LLVMValueRef p) {
  p = ir_address_base(p);
  if (omp_task_alloc_of(p) || (LLVMIsALoadInst(p) && omp_task_alloc_of(ir_address_base(LLVMGetOperand(p, 0))))) return true;
  if (!LLVMIsAAllocaInst(p)) return false;
  bool copied = false;
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAGetElementPtrInst(user) || (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p)) continue;
    if (!ir_is_call(user) || strncmp(ir_called_name(user), "llvm.memcpy.", 12) || LLVMGetArgOperand(user, 1) != p ||
        !fills_task_block(LLVMGetArgOperand(user, 0)))
      return false;
    copied = true;
  }
  return copied;
}

/* The type a function loads and stores through an address, directly or (at -O0) through the stack slot
 * it keeps it in; NULL when there are other uses or several types. */
static LLVMTypeRef accessed_type(LLVMValueRef p, int depth) {
  LLVMTypeRef t = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    LLVMTypeRef got = NULL;
    if (LLVMIsALoadInst(user)) got = LLVMTypeOf(user);
    else if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p) got = LLVMTypeOf(LLVMGetOperand(user, 0));
    else if (LLVMIsAStoreInst(user) && LLVMIsAAllocaInst(LLVMGetOperand(user, 1)) && depth == 0) {
      LLVMValueRef slot = LLVMGetOperand(user, 1);
      for (LLVMUseRef v = LLVMGetFirstUse(slot); v; v = LLVMGetNextUse(v)) {
        LLVMValueRef l = LLVMGetUser(v);
        if (LLVMIsAStoreInst(l) && LLVMGetOperand(l, 1) == slot) continue;
        if (!LLVMIsALoadInst(l) || !(got = accessed_type(l, 1)) || (t && t != got)) return NULL;
        t = got;
      }
      continue;
    }
    if (!got || (t && t != got)) return NULL;
    t = got;
  }
  return t;
}

/* The type one use of the copy reads or writes it as: a load, a store into it, or a call passing it to a
 * function of the program that loads and stores through it (a helper adding into it: the task's own copy
 * lives until the task returns); NULL for any other use. */
static LLVMTypeRef use_type(LLVMValueRef user, LLVMValueRef copy) {
  if (LLVMIsALoadInst(user)) return LLVMTypeOf(user);
  if (LLVMIsAStoreInst(user))
    return LLVMGetOperand(user, 1) == copy && LLVMGetOperand(user, 0) != copy ? LLVMTypeOf(LLVMGetOperand(user, 0)) : NULL;
  LLVMValueRef callee = ir_is_call(user) && !omp_is_runtime_call(user) ? ir_called_function(user) : NULL;
  if (!callee || LLVMIsDeclaration(callee)) return NULL;
  for (unsigned a = 0, n = ir_num_call_args(user); a < n && a < LLVMCountParams(callee); a++)
    if (LLVMGetArgOperand(user, a) == copy) return accessed_type(LLVMGetParam(callee, a), 0);
  return NULL;
}

/* The type the task reads and writes its copy as, if it only loads and stores it, passes it to the
 * program's functions that do, or hands it to tasks it creates (those stores in *handed); NULL
 * otherwise (*other_uses), or when it does none of these. */
static LLVMTypeRef copy_type(LLVMValueRef copy, ValueList *handed, bool *other_uses) {
  LLVMTypeRef t = NULL;
  *other_uses = false;
  for (LLVMUseRef u = LLVMGetFirstUse(copy); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == copy && LLVMGetOperand(user, 1) != copy &&
        fills_task_block(LLVMGetOperand(user, 1))) {
      vec_push(handed, user);
      continue;
    }
    LLVMTypeRef got = use_type(user, copy);
    if (!got || (t && t != got)) *other_uses = true;
    else t = got;
  }
  return *other_uses ? NULL : t;
}

static void rewrite(LLVMValueRef call, const Combiners *c) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  /* in the entry block, the variable's address is there at every return */
  if (LLVMGetInstructionParent(call) != LLVMGetEntryBasicBlock(fn) || ir_num_call_args(call) != 3) return;
  LLVMValueRef var = LLVMGetArgOperand(call, 2);
  ValueList handed = {0};
  bool other_uses;
  LLVMTypeRef t = copy_type(call, &handed, &other_uses);
  if (other_uses || (t && (!(ir_is_fp(t) || ir_is_int(t)) || !listed_type(c->summed, c->n_summed, t) ||
                           c->n_other > MAX_TYPES || listed_type(c->other, c->n_other, t)))) {
    vec_free(&handed);
    return;
  }
  /* tasks it creates reducing into the same variable get the variable's own address: each adds into it
     when it returns, and the variable lives until the group ends */
  for (size_t k = 0; k < handed.len; k++) LLVMSetOperand(handed.data[k], 0, var);
  vec_free(&handed);
  if (t) {
    LLVMValueRef copy = ir_entry_alloca(fn, t, "task.reduction");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(t));
    LLVMPositionBuilderBefore(b, call);
    LLVMBuildStore(b, LLVMConstNull(t), copy);
    LLVMReplaceAllUsesWith(call, copy);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef ret = LLVMGetBasicBlockTerminator(bb);
      if (!ret || !LLVMIsAReturnInst(ret)) continue;
      LLVMPositionBuilderBefore(b, ret);
      LLVMValueRef sum = LLVMBuildLoad2(b, t, copy, "");
      if (ir_is_fp(t)) ir_atomic_fadd(b, var, sum, 0);
      else LLVMBuildAtomicRMW(b, LLVMAtomicRMWBinOpAdd, var, sum, LLVMAtomicOrderingMonotonic, 0);
    }
    LLVMDisposeBuilder(b);
  }
  LLVMInstructionEraseFromParent(call);
}

/* The task group's handle that a registration returns goes into the tasks' blocks, for their requests of
 * a copy: null asks for the current task group's, which libomp looks up the same way, and a null needs
 * no shadow where the block has one. */
static bool registers_reduction(LLVMValueRef call) {
  const char *name = ir_called_name(call);
  return !strcmp(name, "__kmpc_taskred_init") || !strcmp(name, "__kmpc_task_reduction_init") ||
         !strcmp(name, "__kmpc_taskred_modifier_init") || !strcmp(name, "__kmpc_task_reduction_modifier_init");
}

void omp_open_task_reductions(LLVMModuleRef m, const ValueList *fns) {
  Combiners c;
  bool collected = false;
  for (size_t k = 0; k < fns->len; k++) {
    ValueList calls = {0};
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fns->data[k]); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (ir_is_call(i) && !strcmp(ir_called_name(i), "__kmpc_task_reduction_get_th_data")) vec_push(&calls, i);
        else if (ir_is_call(i) && registers_reduction(i))
          LLVMReplaceAllUsesWith(i, LLVMConstNull(LLVMTypeOf(i)));
    if (calls.len && !collected) collect_combiners(m, &c), collected = true;
    for (size_t j = 0; j < calls.len; j++) rewrite(calls.data[j], &c);
    vec_free(&calls);
  }
}
