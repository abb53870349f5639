/* The tangent function as a whole: its signature, its blocks in dominance order, phis, the result. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/body.h"
#include "forward/forward.h"
#include "forward/fwd_internal.h"

#include "ir/cfg.h"
#include "ir/diag.h"
#include "ir/ir.h"

void fwd_error(FwdGen *g, LLVMValueRef at, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_error(at, "%s", msg);
  g->errors++;
}

LLVMValueRef fwd_primal(FwdGen *g, LLVMValueRef orig) { return ir_mapped(&g->vmap, orig); }

LLVMValueRef fwd_clone(FwdGen *g, LLVMValueRef inst) { return ir_clone_mapped(g->b, &g->vmap, inst); }

/* ---- signature ---- */

static bool is_dup(char c) { return c == 'd' || c == 'n'; }

LLVMTypeRef fwd_function_type(LLVMTypeRef fty, const char *pattern, bool ret_tangent, unsigned width) {
  FwdGen g = {.width = width}; /* what tan_type asks of it */
  unsigned np = LLVMCountParamTypes(fty), n = 0;
  LLVMTypeRef *params = xcalloc(np + 1, sizeof *params), *types = xcalloc(np * (1 + width) + 1, sizeof *types);
  LLVMGetParamTypes(fty, params);
  for (unsigned p = 0; p < np; p++) {
    types[n++] = params[p];
    if (is_dup(pattern[p]))
      for (unsigned w = 0; w < width; w++) types[n++] = params[p];
  }
  LLVMTypeRef r = LLVMGetReturnType(fty);
  if (ret_tangent) {
    LLVMTypeRef pair[2] = {r, tan_type(&g, r)};
    r = LLVMStructTypeInContext(LLVMGetTypeContext(fty), pair, 2, 0);
  }
  LLVMTypeRef t = LLVMFunctionType(r, types, n, 0);
  free(params);
  free(types);
  return t;
}

/* Enum attributes of the original that stay true of its tangent function. Memory effects do not:
 * the tangent function also writes the shadows. */
static const char *const kept_fn_attrs[] = {"nounwind", "uwtable", "noinline", "optnone", "mustprogress",
                                            "ssp", "sspstrong", "sspreq", "nosync"};

static void copy_attributes(FwdGen *g, const char *pattern) {
  LLVMValueRef f = g->orig, t = g->func;
  unsigned n = LLVMGetAttributeCountAtIndex(f, LLVMAttributeFunctionIndex);
  LLVMAttributeRef *attrs = xcalloc(n + 1, sizeof *attrs);
  LLVMGetAttributesAtIndex(f, LLVMAttributeFunctionIndex, attrs);
  for (unsigned i = 0; i < n; i++) {
    bool keep = LLVMIsStringAttribute(attrs[i]);
    for (size_t k = 0; !keep && k < sizeof kept_fn_attrs / sizeof *kept_fn_attrs; k++)
      keep = LLVMIsEnumAttribute(attrs[i]) && LLVMGetEnumAttributeKind(attrs[i]) == ir_attr_kind(kept_fn_attrs[k]);
    if (keep) LLVMAddAttributeAtIndex(t, LLVMAttributeFunctionIndex, attrs[i]);
  }
  free(attrs);
  /* Parameter attributes describe how the primal uses its arguments, which does not change; except
   * `returned`, since the result now has a different type. A by-value shadow is copied like its primal. */
  unsigned k = 0, np = LLVMCountParams(f), returned = ir_attr_kind("returned"), byval = ir_attr_kind("byval");
  for (unsigned p = 0; p < np; p++) {
    unsigned na = LLVMGetAttributeCountAtIndex(f, p + 1);
    LLVMAttributeRef *pa = xcalloc(na + 1, sizeof *pa);
    LLVMGetAttributesAtIndex(f, p + 1, pa);
    for (unsigned i = 0; i < na; i++) {
      if (LLVMIsStringAttribute(pa[i]) || LLVMGetEnumAttributeKind(pa[i]) == returned) continue;
      LLVMAddAttributeAtIndex(t, k + 1, pa[i]);
      if (is_dup(pattern[p]) && LLVMGetEnumAttributeKind(pa[i]) == byval)
        for (unsigned w = 1; w <= g->width; w++) LLVMAddAttributeAtIndex(t, k + 1 + w, pa[i]);
    }
    free(pa);
    k += 1 + (is_dup(pattern[p]) ? g->width : 0);
  }
}

static LLVMValueRef declare(FwdGen *g, const char *pattern) {
  LLVMValueRef f = g->orig;
  LLVMTypeRef fty = fwd_function_type(LLVMGlobalGetValueType(f), pattern, g->ret_tangent, g->width);
  char *name = g->error_mode  ? xasprintf("fwderror.%s.%s", LLVMGetValueName(f), pattern)
               : g->width > 1 ? xasprintf("fwddiffe%u.%s.%s", g->width, LLVMGetValueName(f), pattern)
                              : xasprintf("fwddiffe.%s.%s", LLVMGetValueName(f), pattern);
  LLVMValueRef t = LLVMAddFunction(g->ad->mod, name, fty);
  free(name);
  LLVMSetLinkage(t, LLVMInternalLinkage);
  if (g->width > 1) { /* what reverse mode over it looks for (ad.c) */
    char w[16];
    snprintf(w, sizeof w, "%u", g->width);
    LLVMAddAttributeAtIndex(t, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(g->ad->ctx, FWD_WIDTH_ATTR, strlen(FWD_WIDTH_ATTR), w, strlen(w)));
  }
  return t;
}

/* ---- body ---- */

static void map_parameters(FwdGen *g, const char *pattern) {
  unsigned k = 0;
  for (unsigned p = 0, np = LLVMCountParams(g->orig); p < np; p++) {
    LLVMValueRef op = LLVMGetParam(g->orig, p), np_ = LLVMGetParam(g->func, k++);
    size_t len;
    const char *name = LLVMGetValueName2(op, &len);
    LLVMSetValueName2(np_, name, len);
    vmap_put(&g->vmap, op, np_);
    if (!is_dup(pattern[p])) continue;
    LLVMValueRef lanes[MAX_WIDTH];
    for (unsigned w = 0; w < g->width; w++) {
      lanes[w] = LLVMGetParam(g->func, k++);
      char *sname = g->width > 1 ? xasprintf("d%s.%u", *name ? name : "arg", w) : xasprintf("d%s", *name ? name : "arg");
      LLVMSetValueName2(lanes[w], sname, strlen(sname));
      free(sname);
    }
    tan_set(g, op, tan_pack(g, LLVMTypeOf(op), lanes));
  }
}

static void fill_phis(FwdGen *g) {
  for (size_t i = 0; i < g->phis.len; i++) {
    LLVMValueRef phi = g->phis.data[i], nphi = vmap_get(&g->vmap, phi), tphi = tan_get(g, phi);
    LLVMTypeRef t = LLVMTypeOf(phi);
    for (unsigned k = 0, n = LLVMCountIncoming(phi); k < n; k++) {
      LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, k);
      LLVMValueRef nfrom = vmap_get(&g->vmap, LLVMBasicBlockAsValue(from));
      if (!nfrom) continue; /* an unreachable predecessor */
      LLVMBasicBlockRef nbb = LLVMValueAsBasicBlock(nfrom);
      LLVMValueRef v = LLVMGetIncomingValue(phi, k), nv = fwd_primal(g, v);
      LLVMAddIncoming(nphi, &nv, &nbb, 1);
      if (!tphi) continue;
      LLVMValueRef tv = NULL;
      /* a block that branches here on two edges (a switch's cases) has one entry per edge: the same value,
         and the tangent already built for it */
      for (unsigned m = 0, nt = LLVMCountIncoming(tphi); m < nt && !tv; m++)
        if (LLVMGetIncomingBlock(tphi, m) == nbb) tv = LLVMGetIncomingValue(tphi, m);
      if (!tv && ir_is_ptr(t)) {
        /* the shadow must exist at the end of the predecessor: build any null lanes there */
        LLVMValueRef lanes[MAX_WIDTH];
        LLVMPositionBuilderBefore(g->b, LLVMGetBasicBlockTerminator(nbb));
        if (!fwd_shadow_lanes(g, v, phi, "this pointer phi", lanes)) continue;
        tv = tan_pack(g, t, lanes);
      } else if (!tv) {
        tv = tan_get_or_zero(g, v);
      }
      LLVMAddIncoming(tphi, &tv, &nbb, 1);
    }
  }
}

/* The large locals' shadows (fwd_memory.c) given back wherever the function returns. */
static void free_heap_slots(FwdGen *g) {
  LLVMTypeRef ptr = LLVMPointerTypeInContext(g->ctx, 0);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->func); bb && g->heap_slots.len; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (!t || (!LLVMIsAReturnInst(t) && !LLVMIsAResumeInst(t))) continue;
    LLVMPositionBuilderBefore(g->b, t);
    for (size_t i = 0; i < g->heap_slots.len; i++)
      ir_call_named(g->b, "free", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), &ptr, 1, 0), &g->heap_slots.data[i], 1);
  }
  vec_free(&g->heap_slots);
}

static void generate(FwdGen *g, const char *pattern) {
  BlockList rpo = {0};
  cfg_reverse_post_order(g->orig, &rpo);
  for (size_t i = 0; i < rpo.len; i++) {
    size_t len;
    const char *name = LLVMGetValueName2(LLVMBasicBlockAsValue(rpo.data[i]), &len);
    LLVMBasicBlockRef nb = LLVMAppendBasicBlockInContext(g->ctx, g->func, name);
    vmap_put(&g->vmap, LLVMBasicBlockAsValue(rpo.data[i]), LLVMBasicBlockAsValue(nb));
  }
  LLVMPositionBuilderAtEnd(g->b, LLVMGetEntryBasicBlock(g->func));
  map_parameters(g, pattern);
  for (size_t i = 0; i < rpo.len; i++) {
    LLVMPositionBuilderAtEnd(g->b, LLVMValueAsBasicBlock(vmap_get(&g->vmap, LLVMBasicBlockAsValue(rpo.data[i]))));
    for (LLVMValueRef inst = LLVMGetFirstInstruction(rpo.data[i]); inst; inst = LLVMGetNextInstruction(inst))
      fwd_inst(g, inst);
  }
  fill_phis(g);
  free_heap_slots(g);
  ir_strip_locations(g->func);
  ir_strip_loop_hints(g->func);
  vec_free(&rpo);
}

static LLVMValueRef tangent_function(AdModule *ad, LLVMValueRef fn, const char *pattern, bool ret_tangent, unsigned width,
                                     bool error_mode) {
  char *key = xasprintf("%s|%s|%s|%u|%d", error_mode ? "fwderror" : "fwd", LLVMGetValueName(fn), pattern, width, ret_tangent);
  LLVMValueRef done = ad_find_generated(ad, key);
  if (done) {
    if (ad_failed(ad, key)) done = NULL;
    free(key);
    return done;
  }
  fn = ad_body(ad, fn);
  FwdGen g = {.ad = ad, .orig = fn, .width = width, .ret_tangent = ret_tangent, .error_mode = error_mode, .ctx = ad->ctx};
  g.act = activity_get(ad, fn, pattern);
  g.func = declare(&g, pattern);
  ad_remember_generated(ad, key, g.func); /* before the body: recursion calls it */
  /* only trying (a function a function pointer may point to): this function's own errors, kept apart */
  bool trying = diag_trying();
  if (trying) diag_capture_begin(true);
  copy_attributes(&g, pattern);
  vmap_init(&g.vmap);
  vmap_init(&g.tmap);
  g.b = LLVMCreateBuilderInContext(g.ctx);
  generate(&g, pattern);
  ad_iter_step(g.func);
  LLVMDisposeBuilder(g.b);
  vmap_free(&g.vmap);
  vmap_free(&g.tmap);
  vec_free(&g.phis);
  char *kept = trying ? diag_capture_end() : NULL;
  if (g.errors) ad_remember_failure(ad, key, kept);
  free(kept);
  free(key);
  return g.errors ? NULL : g.func;
}

LLVMValueRef fwd_function(AdModule *ad, LLVMValueRef fn, const char *pattern, bool ret_tangent, unsigned width) {
  return tangent_function(ad, fn, pattern, ret_tangent, width, false);
}

LLVMValueRef fwd_error_function(AdModule *ad, LLVMValueRef fn, const char *pattern, bool ret_tangent) {
  return tangent_function(ad, fn, pattern, ret_tangent, 1, true);
}
