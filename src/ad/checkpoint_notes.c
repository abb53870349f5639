/* What a checkpointed step notes for the snapshots (see checkpoint.h): each load and store outside its own
 * memory calls the runtime with its site, base pointer, address and size; the functions it calls are
 * copied with notes of their own; what the step may not do is refused here. After the derivatives are
 * written the notes test their common case inline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/checkpoint.h"
#include "ad/checkpoint_internal.h"
#include "analysis/calls.h"
#include "analysis/memtype.h"
#include "ir/diag.h"


/* Splits at's block before `at`: what precedes it moves to a new block in front, which the block's
 * predecessors now enter (phis move with it, their incoming blocks unchanged). Returns the new block. */
static LLVMBasicBlockRef split_before(LLVMContextRef c, LLVMValueRef at) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(at), head = LLVMInsertBasicBlockInContext(c, bb, "");
  LLVMValueRef fn = LLVMGetBasicBlockParent(bb);
  for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(fn); p; p = LLVMGetNextBasicBlock(p)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p);
    for (unsigned s = 0, n = t && p != head ? LLVMGetNumSuccessors(t) : 0; s < n; s++)
      if (LLVMGetSuccessor(t, s) == bb) LLVMSetSuccessor(t, s, head);
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, head);
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i != at; i = next) {
    next = LLVMGetNextInstruction(i);
    size_t len;
    const char *name = LLVMGetValueName2(i, &len);
    char *keep = xasprintf("%.*s", (int)len, name);
    LLVMInstructionRemoveFromParent(i);
    LLVMInsertIntoBuilderWithName(b, i, keep);
    free(keep);
  }
  LLVMDisposeBuilder(b);
  return head;
}

/* After differentiation: each note tests inline against the hull its site grew last (words 1 and 2),
 * which the optimiser may load once per loop; the runtime's function tests again, so a stale hull costs
 * only a call. (Before, the branch would have made the derivative record which way each access went.) */
static void expand_note(LLVMContextRef c, LLVMValueRef call) {
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i64 = LLVMInt64TypeInContext(c);
  LLVMValueRef site = LLVMGetArgOperand(call, 0), addr = LLVMGetArgOperand(call, 2), size = LLVMGetArgOperand(call, 3);
  LLVMBasicBlockRef head = split_before(c, call), here = LLVMGetInstructionParent(call);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef lo = LLVMBuildLoad2(b, ptr, LLVMBuildGEP2(b, i64, site, (LLVMValueRef[]){LLVMConstInt(i64, 1, 0)}, 1, ""), "");
  LLVMValueRef hi = LLVMBuildLoad2(b, ptr, LLVMBuildGEP2(b, i64, site, (LLVMValueRef[]){LLVMConstInt(i64, 2, 0)}, 1, ""), "");
  LLVMValueRef end = LLVMBuildGEP2(b, LLVMInt8TypeInContext(c), addr, &size, 1, "");
  LLVMValueRef inside = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntUGE, addr, lo, ""), LLVMBuildICmp(b, LLVMIntULE, end, hi, ""), "");
  LLVMBasicBlockRef slow = LLVMInsertBasicBlockInContext(c, here, "ckpt.note");
  LLVMValueRef br = LLVMBuildCondBr(b, inside, here, slow);
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(call);
  LLVMInstructionSetDebugLoc(br, loc);
  LLVMPositionBuilderAtEnd(b, slow);
  LLVMInstructionSetDebugLoc(LLVMBuildBr(b, here), loc);
  LLVMInstructionRemoveFromParent(call);
  LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(slow));
  LLVMInsertIntoBuilder(b, call);
  LLVMDisposeBuilder(b);
}

void checkpoint_lower_notes(LLVMModuleRef m) {
  const char *names[2] = {"__parad_rt_ckpt_note", "__parad_rt_ckpt_note_load"};
  for (int k = 0; k < 2; k++) {
    LLVMValueRef f = LLVMGetNamedFunction(m, names[k]);
    if (!f) continue;
    ValueList calls = {0};
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
      if (ir_is_call(LLVMGetUser(u))) vec_push(&calls, LLVMGetUser(u));
    for (size_t i = 0; i < calls.len; i++) expand_note(LLVMGetModuleContext(m), calls.data[i]);
    vec_free(&calls);
  }
}

static void note(Ck *ck, LLVMValueRef at, bool store, LLVMValueRef addr, LLVMValueRef size) {
  LLVMValueRef site = LLVMAddGlobal(ck->m, LLVMArrayType2(ck->i64, SITE_WORDS), "ckpt.site");
  LLVMSetLinkage(site, LLVMInternalLinkage);
  LLVMSetInitializer(site, LLVMConstNull(LLVMArrayType2(ck->i64, SITE_WORDS)));
  LLVMSetAlignment(site, 8);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
  LLVMPositionBuilderBefore(b, at);
  LLVMValueRef args[4] = {site, ir_address_base(addr), addr, LLVMBuildIntCast2(b, size, ck->i64, 0, "")};
  LLVMTypeRef params[4] = {ck->ptr, ck->ptr, ck->ptr, ck->i64};
  if (!ir_is_ptr(LLVMTypeOf(args[1]))) args[1] = addr;
  LLVMValueRef call = ir_call_named(b, store ? "__parad_rt_ckpt_note" : "__parad_rt_ckpt_note_load",
                                    LLVMFunctionType(ck->void_t, params, 4, 0), args, 4);
  LLVMInstructionSetDebugLoc(call, LLVMInstructionGetDebugLoc(at));
  LLVMDisposeBuilder(b);
  /* for the optimiser: reads the program's memory (the bytes a store overwrites, for the snapshots), writes
     only the runtime's own, keeps no pointer */
  LLVMValueRef decl = ir_called_function(call);
  if (!LLVMGetEnumAttributeAtIndex(decl, LLVMAttributeFunctionIndex, ir_attr_kind("nounwind"))) {
    const unsigned read_all_write_inaccessible = 1 | 3 << 2 | 1 << 4; /* MemoryEffects: arg, inaccessible, other */
    LLVMAddAttributeAtIndex(decl, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ck->c, ir_attr_kind("memory"), read_all_write_inaccessible));
    LLVMAddAttributeAtIndex(decl, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ck->c, ir_attr_kind("nounwind"), 0));
    LLVMAddAttributeAtIndex(decl, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ck->c, ir_attr_kind("willreturn"), 0));
    for (unsigned i = 1; i <= 3; i++)
      LLVMAddAttributeAtIndex(decl, i, LLVMCreateEnumAttribute(ck->c, ir_attr_kind("nocapture"), 0));
  }
}

static LLVMValueRef size_of(Ck *ck, LLVMTypeRef t) { return LLVMConstInt(ck->i64, ir_type_size(ck->m, t), 0); }

/* The loop's variables (own[0..nown)) and fn's own stack are not noted: the first are snapshotted whole,
 * the second is gone when the step returns. */
static bool own_memory(LLVMValueRef fn, LLVMValueRef p, unsigned nown) {
  LLVMValueRef base = ir_address_base(p);
  if (LLVMIsAAllocaInst(base) && fn_of(base) == fn) return true;
  for (unsigned i = 0; i < nown; i++)
    if (base == LLVMGetParam(fn, i)) return true;
  return false;
}

static LLVMValueRef noting_copy(Ck *ck, LLVMValueRef fn, LLVMValueRef at);

static void refuse(LLVMValueRef at, const char *what) {
  diag_error(at, "%s inside a loop checkpointed with " MARKER "() is not supported yet", what);
}

static void note_call(Ck *ck, LLVMValueRef fn, LLVMValueRef call, unsigned nown) {
  const MathRule *rule = NULL;
  CallKind kind = call_classify(call, &rule);
  const char *name = ir_called_name(call);
  unsigned n = ir_num_call_args(call);
  char what[300];
  switch (kind) {
  case CALL_DEBUG:
  case CALL_ALLOC:
  case CALL_FREE: return;
  case CALL_MEMCPY:
  case CALL_MEMSET: {
    LLVMValueRef dst = LLVMGetArgOperand(call, 0), len = LLVMGetArgOperand(call, 2);
    if (kind == CALL_MEMCPY) { /* of pointers: refused once their type is known (checkpoint_check_copies) */
      if (!own_memory(fn, LLVMGetArgOperand(call, 1), nown)) note(ck, call, false, LLVMGetArgOperand(call, 1), len);
    }
    if (!own_memory(fn, dst, nown)) note(ck, call, true, dst, len);
    return;
  }
  case CALL_MATH:
  case CALL_INACTIVE:
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef a = LLVMGetArgOperand(call, i);
      if (ir_is_ptr(LLVMTypeOf(a)) && call_writes_argument(call, i) && !own_memory(fn, a, nown)) {
        snprintf(what, sizeof what, "a call of '%s' that writes through a pointer into memory other than the loop's "
                                    "variables", name);
        refuse(call, what);
      }
    }
    return;
  case CALL_MODULE: {
    LLVMValueRef copy = noting_copy(ck, ir_called_function(call), call);
    if (copy) LLVMSetOperand(call, (unsigned)LLVMGetNumOperands(call) - 1, copy);
    return;
  }
  case CALL_REALLOC: refuse(call, "realloc"); return;
  case CALL_OMP: refuse(call, "an OpenMP construct"); return;
  case CALL_MPI: refuse(call, "MPI communication"); return;
  case CALL_INDIRECT: refuse(call, "a call through a function pointer"); return;
  case CALL_REQUEST: refuse(call, "a derivative request"); return;
  case CALL_UNKNOWN:
  default:
    snprintf(what, sizeof what, "a call of '%s', whose body Parad cannot see (what it writes could not be kept in "
                                "the snapshots),", name);
    refuse(call, what);
    return;
  }
}

void checkpoint_add_notes(Ck *ck, LLVMValueRef fn, unsigned nown) {
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(ck->c, NOTING, strlen(NOTING), "", 0));
  ValueList insts = {0};
  ValueMap constant_reads;
  vmap_init(&constant_reads);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) vec_push(&insts, i);
  for (size_t k = 0; k < insts.len; k++) {
    LLVMValueRef i = insts.data[k];
    if (LLVMIsAStoreInst(i)) {
      LLVMValueRef v = LLVMGetOperand(i, 0), p = LLVMGetOperand(i, 1);
      if (own_memory(fn, p, nown)) continue;
      if (ir_contains_ptr(LLVMTypeOf(v))) {
        refuse(i, "storing a pointer into memory other than the loop's variables (its shadow would not follow the "
                  "snapshots)");
        continue;
      }
      note(ck, i, true, p, size_of(ck, LLVMTypeOf(v)));
    } else if (LLVMIsALoadInst(i)) {
      LLVMValueRef p = LLVMGetOperand(i, 0);
      if (own_memory(fn, p, nown)) continue;
      if (!LLVMIsAConstant(p)) {
        note(ck, i, false, p, size_of(ck, LLVMTypeOf(i)));
      } else if (!vmap_has(&constant_reads, p)) { /* a global's: once per call, when the function starts (a read's
                                                     note only has to come before the loop ends) */
        vmap_put(&constant_reads, p, p);
        note(ck, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)), false, p, size_of(ck, LLVMTypeOf(i)));
      }
    } else if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i)) {
      refuse(i, "an atomic update");
    } else if (is_marker(i)) {
      diag_error(i, MARKER "() in a loop inside a checkpointed loop, or twice in one loop: nested checkpointed loops "
                    "are not supported yet");
    } else if (ir_is_call_site(i)) {
      note_call(ck, fn, i, nown);
    }
  }
  vec_free(&insts);
  vmap_free(&constant_reads);
}

/* The copy of a function a step calls, noting its accesses (made once). */
static LLVMValueRef noting_copy(Ck *ck, LLVMValueRef fn, LLVMValueRef at) {
  if (vmap_has(&ck->copies, fn)) return vmap_get(&ck->copies, fn);
  for (size_t i = 0; i < ck->copying.len; i++)
    if (ck->copying.data[i] == fn) {
      refuse(at, "a recursive call");
      return NULL;
    }
  char *name = xasprintf("%s.ckpt", LLVMGetValueName(fn));
  ValueMap vm;
  vmap_init(&vm);
  LLVMValueRef copy = ir_clone_function(fn, name, &vm);
  vmap_free(&vm);
  free(name);
  checkpoint_give_subprogram(ck, copy, fn, LLVMGetValueName(fn));
  vmap_put(&ck->copies, fn, copy);
  vec_push(&ck->copying, fn);
  checkpoint_add_notes(ck, copy, 0);
  ck->copying.len--;
  return copy;
}

int checkpoint_check_copies(LLVMModuleRef m) {
  int before = diag_error_count();
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, NOTING, strlen(NOTING))) continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        const MathRule *rule;
        if (!ir_is_call(i) || call_classify(i, &rule) != CALL_MEMCPY) continue;
        DataKind d = memtype_of_copy(i);
        if ((d == DATA_PTR || d == DATA_MIXED) && !LLVMIsAAllocaInst(ir_address_base(LLVMGetArgOperand(i, 0))))
          refuse(i, "copying memory that holds pointers (their shadows would not follow the snapshots)");
      }
  }
  return diag_error_count() - before;
}
