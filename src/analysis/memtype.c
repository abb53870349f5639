#include "analysis/memtype.h"

#include <string.h>

#include "ir/ir.h"

static MemType classify_type(LLVMTypeRef t) {
  /* a struct or array at this address: what lies at its start */
  for (;;) {
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMStructTypeKind && LLVMCountStructElementTypes(t) > 0) t = LLVMStructGetTypeAtIndex(t, 0);
    else if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) t = LLVMGetElementType(t);
    else break;
  }
  if (ir_is_fp(t)) return MEMTYPE_FP;
  if (ir_is_ptr(t)) return MEMTYPE_PTR;
  if (ir_is_int(t)) return LLVMGetIntTypeWidth(t) == 8 ? MEMTYPE_UNKNOWN : MEMTYPE_INT; /* i8: raw bytes */
  return MEMTYPE_UNKNOWN;
}

/* The scalar type named by a struct-path TBAA tag !{base, access, offset}: access = !{!"name", ...}. */
static MemType from_tbaa(LLVMValueRef inst) {
  LLVMValueRef tag = LLVMGetMetadata(inst, LLVMGetMDKindID("tbaa", 4));
  if (!tag || LLVMGetMDNodeNumOperands(tag) < 3) return MEMTYPE_UNKNOWN;
  LLVMValueRef ops[4];
  if (LLVMGetMDNodeNumOperands(tag) > 4) return MEMTYPE_UNKNOWN;
  LLVMGetMDNodeOperands(tag, ops);
  LLVMValueRef access = ops[1];
  if (!access || LLVMGetMDNodeNumOperands(access) < 1) return MEMTYPE_UNKNOWN;
  LLVMValueRef aops[8];
  if (LLVMGetMDNodeNumOperands(access) > 8) return MEMTYPE_UNKNOWN;
  LLVMGetMDNodeOperands(access, aops);
  unsigned len = 0;
  const char *name = aops[0] ? LLVMGetMDString(aops[0], &len) : NULL;
  if (!name || !len) return MEMTYPE_UNKNOWN;
  if ((len == 5 && !strncmp(name, "float", 5)) || (len == 6 && !strncmp(name, "double", 6)) ||
      (len == 11 && !strncmp(name, "long double", 11)))
    return MEMTYPE_FP;
  if ((len == 11 && !strncmp(name, "any pointer", 11)) || (len > 2 && name[0] == 'p' && name[1] >= '1' && name[1] <= '9'))
    return MEMTYPE_PTR;
  if (len == 15 && !strncmp(name, "omnipotent char", 15)) return MEMTYPE_UNKNOWN; /* bytes: anything */
  if (!strncmp(name, "vtable", 6)) return MEMTYPE_PTR;
  return MEMTYPE_INT; /* int, long, short, _Bool, enums */
}

/* The type an address was computed in: the element a getelementptr lands on, a stack slot's or a
 * global's type. Byte-offset getelementptrs (i8) say nothing. */
static MemType from_address(LLVMValueRef p) {
  p = ir_strip_pointer_casts(p);
  if (LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr)) {
    LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
    unsigned n = (unsigned)LLVMGetNumOperands(p);
    for (unsigned i = 2; i < n; i++) { /* the first index steps over whole elements */
      LLVMTypeKind k = LLVMGetTypeKind(t);
      if (k == LLVMStructTypeKind) {
        LLVMValueRef idx = LLVMGetOperand(p, i);
        if (!LLVMIsAConstantInt(idx)) return MEMTYPE_UNKNOWN;
        t = LLVMStructGetTypeAtIndex(t, (unsigned)LLVMConstIntGetZExtValue(idx));
      } else if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
        t = LLVMGetElementType(t);
      } else {
        return MEMTYPE_UNKNOWN;
      }
    }
    return classify_type(t);
  }
  if (LLVMIsAAllocaInst(p)) return classify_type(LLVMGetAllocatedType(p));
  if (LLVMIsAGlobalVariable(p)) return classify_type(LLVMGlobalGetValueType(p));
  return MEMTYPE_UNKNOWN;
}

MemType memtype_of_access(LLVMValueRef inst) {
  MemType t = from_tbaa(inst);
  if (t != MEMTYPE_UNKNOWN) return t;
  LLVMValueRef ptr = LLVMIsAStoreInst(inst) ? LLVMGetOperand(inst, 1) : LLVMGetOperand(inst, 0);
  return from_address(ptr);
}
