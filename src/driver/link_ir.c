/* The IR of the files the link merges, made to say what ld makes of their code (see link_ir.h). */
#include "driver/link_ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Comdat.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Transforms/PassBuilder.h>

/* A deferred file's IR holds the note for plain linkers (pipeline.c mark_deferred), in a .gnu.warning
 * section ld consumes. The program's object calls no entry point, so there it is plain data: in its
 * section, -fsanitize=address's registration of the global referred to a section ld had discarded, and
 * the program did not link. */
static void plain_link_notes(LLVMModuleRef m) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (!strncmp(LLVMGetValueName(g), "parad.link_note.", 16)) LLVMSetSection(g, "");
}

/* gcov's counters (--coverage) are added to each file's IR before the merge, as clang adds them to each
 * file it compiles: the pass takes a module for one file, and on the merged program it wrote every file's
 * functions into one .gcno and counts the others' could not match. */
static void coverage_counters(LLVMModuleRef m) {
  if (!LLVMGetNamedMetadata(m, "llvm.gcov", 9)) return;
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef err = LLVMRunPasses(m, "insert-gcov-profiling", NULL, po);
  if (err) {
    char *msg = LLVMGetErrorMessage(err);
    fprintf(stderr, "parad-cc: warning: cannot add the coverage counters: %s\n", msg);
    LLVMDisposeErrorMessage(msg);
  }
  LLVMDisposePassBuilderOptions(po);
}

/* ld's --wrap in module m, which it applies to undefined references only: a declaration of g becomes
 * one of __wrap_g, one of __real_g one of g. A definition of the new name in m takes the uses. */
static void rename_declaration(LLVMModuleRef m, const char *from, const char *to) {
  LLVMValueRef old = LLVMGetNamedFunction(m, from);
  if (!old) old = LLVMGetNamedGlobal(m, from);
  if (!old || !LLVMIsDeclaration(old)) return;
  LLVMValueRef same = LLVMGetNamedFunction(m, to);
  if (!same) same = LLVMGetNamedGlobal(m, to);
  if (!same) {
    LLVMSetValueName2(old, to, strlen(to));
    return;
  }
  LLVMReplaceAllUsesWith(old, same);
  if (LLVMIsAFunction(old)) LLVMDeleteFunction(old);
  else LLVMDeleteGlobal(old);
}

static void apply_wraps(const LinkView *v, LLVMModuleRef m) {
  for (size_t i = 0; i < v->wrapped.len; i++) {
    const char *g = v->wrapped.data[i];
    char *wrap = xasprintf("__wrap_%s", g), *real = xasprintf("__real_%s", g);
    rename_declaration(m, g, wrap); /* first, so that __real_g's declaration can take g's name */
    rename_declaration(m, real, g);
    free(wrap);
    free(real);
  }
}

/* Whether unit u's code defines name (its ELF symbol table); weakly. */
static bool defines_symbol(const LinkUnit *u, const char *name) {
  for (size_t i = 0; i < u->symbols.len; i++)
    if ((u->symbols.data[i].kind == SYM_STRONG || u->symbols.data[i].kind == SYM_WEAK) && !strcmp(u->symbols.data[i].name, name))
      return true;
  return false;
}

static bool defines_weakly(const LinkUnit *u, const char *name) {
  for (size_t i = 0; i < u->symbols.len; i++)
    if (u->symbols.data[i].kind == SYM_WEAK && !strcmp(u->symbols.data[i].name, name)) return true;
  return false;
}

/* A weak definition (not one the language promises equivalent: inline functions, templates) that ld
 * replaces with the definition of a unit whose IR is not merged, or, under --allow-multiple-definition,
 * any definition but the first: m then only declares it, so that a derivative never differentiates the
 * body the program does not run. */
static bool overridden(const LinkView *v, const LinkUnit *u, LLVMValueRef g) {
  LLVMLinkage l = LLVMGetLinkage(g);
  if (LLVMIsDeclaration(g)) return false;
  const LinkUnit *d = link_view_definer(v, LLVMGetValueName(g));
  if (!d || d == u) return false;
  /* a later definition ld drops; one made weak after compiling (objcopy --weaken-symbol), which merged
     beside the strong one failed with LLVM's "symbol multiply defined" */
  if (l == LLVMExternalLinkage) return v->muldefs || defines_weakly(u, LLVMGetValueName(g));
  return (l == LLVMWeakAnyLinkage || l == LLVMLinkOnceAnyLinkage) && !link_unit_merged(d);
}

static void drop_overridden(const LinkView *v, const LinkUnit *u, LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!overridden(v, u, f)) continue;
    while (LLVMGetFirstBasicBlock(f)) LLVMDeleteBasicBlock(LLVMGetFirstBasicBlock(f));
    LLVMSetSubprogram(f, NULL); /* a declaration's: the verifier then dropped all debug info, file:line with it */
    LLVMSetLinkage(f, LLVMExternalLinkage);
    LLVMSetComdat(f, NULL);
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    if (!overridden(v, u, g)) continue;
    LLVMSetInitializer(g, NULL);
    LLVMSetLinkage(g, LLVMExternalLinkage);
    LLVMSetComdat(g, NULL);
  }
}

/* An optional hook (`extern void hook(void) __attribute__((weak))`, called under `if (hook)`) that no
 * unit ld takes defines is 0 in the program: so in the merged IR, where the optimiser then drops the
 * call the program never makes. It was refused as a call without a body. */
static void drop_unresolved_weak(const LinkView *v, LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f; f = next) {
    next = LLVMGetNextFunction(f);
    if (LLVMGetLinkage(f) != LLVMExternalWeakLinkage || link_view_definer(v, LLVMGetValueName(f))) continue;
    LLVMReplaceAllUsesWith(f, LLVMConstNull(LLVMTypeOf(f)));
    LLVMDeleteFunction(f);
  }
}

/* Whether m has any global value named name, defined or declared. */
static bool mentions(LLVMModuleRef m, const char *name) {
  return LLVMGetNamedFunction(m, name) || LLVMGetNamedGlobal(m, name) || LLVMGetNamedGlobalAlias(m, name, strlen(name));
}

/* The object was changed after it was compiled (objcopy --redefine-sym, a vendored library renamed), and
 * its IR would give the program other names than ld sees:
 * - a function or variable the IR defines for other files that the object's code does not (merging it
 *   failed with LLVM's "symbol multiply defined");
 * - a reference the object's code makes to a symbol another unit on the line defines, which the IR never
 *   names (the caller's side of a rename: the program object made from the IR called the function from
 *   before the rename, so the program itself, not only its derivative, was another one). Symbols the
 *   compiler adds (memcpy, libm, runtimes) are defined by libraries, not by the line's objects. */
const char *link_ir_stale(const LinkView *v, const LinkUnit *u, LLVMModuleRef m, bool *reference) {
  *reference = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage && !defines_symbol(u, LLVMGetValueName(f)))
      return LLVMGetValueName(f);
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage && strncmp(LLVMGetValueName(g), "llvm.", 5) &&
        !defines_symbol(u, LLVMGetValueName(g)))
      return LLVMGetValueName(g);
  for (size_t i = 0; i < u->symbols.len; i++) {
    const LinkSymbol *s = &u->symbols.data[i];
    if (s->kind != SYM_UNDEFINED && s->kind != SYM_WEAK_UNDEFINED) continue;
    const LinkUnit *d = link_view_definer(v, s->name);
    if (d && !d->shared && !mentions(m, s->name)) {
      *reference = true;
      return s->name;
    }
  }
  return NULL;
}

void link_ir_prepare(const LinkView *v, const LinkUnit *u, LLVMModuleRef m) {
  plain_link_notes(m);
  coverage_counters(m);
  apply_wraps(v, m);
  drop_overridden(v, u, m);
}

void link_ir_finish(const LinkView *v, LLVMModuleRef m) { drop_unresolved_weak(v, m); }
