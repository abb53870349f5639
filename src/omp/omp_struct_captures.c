/* Structs of arrays a parallel region reads its arrays' addresses from. A region written over a struct
 * (`m->x[nl[k]]`, `m->fx[m->cornerList[c]]`: LULESH's domain, a mesh) loads each array's address from the
 * struct; where that load sits in a block not every iteration runs (a loop over a node's corners, behind
 * its zero-trip guard), the optimiser may not hoist it out of the region's loop: it cannot tell that the
 * struct is there to read when the guard fails. The reverse sweep then finds an array whose address is a
 * different value on each iteration, plans nothing in the region, and adds every adjoint atomically.
 *
 * C says more: a member access m->numNode reads a whole object of m's struct type. Where the region's
 * function makes such an access after loading m, in the same block and before any call (whenever the load
 * runs, so does the access), m points to such a struct whenever it is loaded, and its load is marked
 * dereferenceable for the struct's extent (from the access's type tag, which lists the struct's members
 * and their offsets) and aligned as that access shows. The caller then lets LICM hoist the loads of m's
 * members. */
#include "omp/omp.h"

#include <string.h>

#include "ir/ir.h"

/* The size of a scalar type tag (!{!"double", ...}), 0 if unknown. */
static unsigned scalar_size(LLVMValueRef type) {
  unsigned len = 0, n = type ? LLVMGetMDNodeNumOperands(type) : 0;
  LLVMValueRef ops[8]; /* a scalar's tag: its name, its parent, an offset */
  if (n < 1 || n > 8) return 0;
  LLVMGetMDNodeOperands(type, ops);
  const char *name = ops[0] ? LLVMGetMDString(ops[0], &len) : NULL;
  if (!name) return 0;
  if ((len == 6 && !strncmp(name, "double", 6)) || (len == 4 && !strncmp(name, "long", 4)) ||
      (len == 9 && !strncmp(name, "long long", 9)) || (len == 11 && !strncmp(name, "any pointer", 11)) ||
      (len > 2 && name[0] == 'p' && name[1] >= '1' && name[1] <= '9'))
    return 8;
  if ((len == 3 && !strncmp(name, "int", 3)) || (len == 5 && !strncmp(name, "float", 5))) return 4;
  if (len == 5 && !strncmp(name, "short", 5)) return 2;
  if (len == 15 && !strncmp(name, "omnipotent char", 15)) return 1;
  return 0;
}

/* The bytes a struct type tag's members span (!{!"name", member type, offset, ...}): its last member's
 * offset plus that member's size; 0 if it is no struct's tag or a member's size is unknown. */
static unsigned long long struct_extent(LLVMValueRef base) {
  enum { MOST = 2 * 64 + 1 };
  unsigned n = base ? LLVMGetMDNodeNumOperands(base) : 0;
  if (n < 3 || n % 2 == 0 || n > MOST) return 0;
  LLVMValueRef ops[MOST];
  LLVMGetMDNodeOperands(base, ops);
  unsigned long long extent = 0;
  for (unsigned i = 1; i + 1 < n; i += 2) {
    if (!ops[i + 1] || !LLVMIsAConstantInt(ops[i + 1])) return 0;
    unsigned size = scalar_size(ops[i]);
    if (!size) return 0;
    unsigned long long end = LLVMConstIntGetZExtValue(ops[i + 1]) + size;
    if (end > extent) extent = end;
  }
  return extent;
}

/* An access in the block of p's load, through p at a constant offset, that tags a member of a struct: the
 * struct's extent, and the alignment p has by it (0: none). */
static unsigned long long member_access(LLVMValueRef p, unsigned *align) {
  unsigned tbaa = LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(p)), "tbaa", 4);
  *align = 0;
  for (LLVMValueRef i = LLVMGetNextInstruction(p); i; i = LLVMGetNextInstruction(i)) {
    if (ir_is_call(i) && !ir_is_debug_intrinsic(i)) return 0; /* from here on, the struct may be gone */
    if (!LLVMIsALoadInst(i) && !LLVMIsAStoreInst(i)) continue;
    LLVMValueRef at = ir_strip_pointer_casts(LLVMGetOperand(i, LLVMIsAStoreInst(i) ? 1 : 0));
    long long offset = 0;
    if (LLVMIsAGetElementPtrInst(at) && LLVMGetNumOperands(at) == 2 && LLVMIsAConstantInt(LLVMGetOperand(at, 1)) &&
        LLVMGetTypeKind(LLVMGetGEPSourceElementType(at)) == LLVMIntegerTypeKind &&
        LLVMGetIntTypeWidth(LLVMGetGEPSourceElementType(at)) == 8) {
      offset = LLVMConstIntGetSExtValue(LLVMGetOperand(at, 1));
      at = LLVMGetOperand(at, 0);
    }
    LLVMValueRef tag = LLVMGetMetadata(i, tbaa), ops[4];
    unsigned nops = tag ? LLVMGetMDNodeNumOperands(tag) : 0;
    if (at != p || nops < 3 || nops > 4) continue;
    LLVMGetMDNodeOperands(tag, ops);
    /* the tag's offset is the member's in the struct: where it is the access's from p, p is the struct's start */
    if (!ops[2] || !LLVMIsAConstantInt(ops[2]) || LLVMConstIntGetSExtValue(ops[2]) != offset) continue;
    unsigned long long extent = struct_extent(ops[0]);
    unsigned a = LLVMGetAlignment(i);
    if (!extent || offset < 0 || !a || offset % a) continue;
    *align = a > 16 ? 16 : a;
    return extent;
  }
  return 0;
}

/* A parallel region's function: forked somewhere. */
static bool forked(LLVMValueRef fn) {
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (ir_is_call(call) && omp_is_runtime_call(call) && omp_classify(call) == OMP_FORK && omp_fork_outlined(call) == fn) return true;
  }
  return false;
}

unsigned omp_mark_struct_captures(LLVMModuleRef m) {
  unsigned marked = 0;
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned deref = LLVMGetMDKindIDInContext(c, "dereferenceable", 15), aligned = LLVMGetMDKindIDInContext(c, "align", 5);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (LLVMIsDeclaration(fn) || ir_fn_has_attr(fn, "optnone") || !forked(fn)) continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsALoadInst(i) || !ir_is_ptr(LLVMTypeOf(i)) || LLVMGetMetadata(i, deref)) continue;
      unsigned align;
      unsigned long long extent = member_access(i, &align);
      if (!extent) continue;
      LLVMMetadataRef n = LLVMValueAsMetadata(LLVMConstInt(i64, extent, 0)), a = LLVMValueAsMetadata(LLVMConstInt(i64, align, 0));
      LLVMSetMetadata(i, deref, LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, &n, 1)));
      LLVMSetMetadata(i, aligned, LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, &a, 1)));
      marked++;
    }
  }
  return marked;
}
