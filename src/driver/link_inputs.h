/* What the linker sees of a link line: the objects on it and the members of its static archives, in
 * order, each with the symbols its ELF symbol table defines and uses and the Parad IR it carries; and
 * which of them GNU ld takes, and whose definition of each symbol wins.
 *
 * The derivatives made at the link must be those of the program ld builds. Merging the IR of every
 * archive member that defines something used anywhere gave a different program where ld's rules differ:
 * an archive is searched once, where it stands on the line, for what is undefined at that point (an
 * archive before the object that needs it gives nothing, a later one does); a weak definition is
 * overridden by a strong one, even in an object without IR; --wrap=g sends undefined references of g to
 * __wrap_g and of __real_g to g; a shared library before an archive defines what it defines, so that the
 * archive's member is not taken for it. This follows those rules. An object's or a member's definition
 * wins over a shared library's, wherever they stand. */
#ifndef PARAD_DRIVER_LINK_INPUTS_H
#define PARAD_DRIVER_LINK_INPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "driver/args.h"
#include "driver/embed.h"

typedef enum { SYM_STRONG, SYM_WEAK, SYM_UNDEFINED, SYM_WEAK_UNDEFINED } SymbolKind;

typedef struct {
  char *name;
  SymbolKind kind;
} LinkSymbol;

typedef struct {
  char *origin;      /* "dir/file.o" or "libx.a(member.o)", for messages */
  size_t position;   /* the index in the line of the argument that names it */
  size_t argument;   /* the ordinal of the linker argument that names it: an archive's members share it */
  bool member;       /* of a static archive: taken only if the program needs it */
  bool whole;        /* ... under --whole-archive: taken whatever it needs */
  bool direct;       /* named on the line itself, not inside -Wl or -Xlinker: the link step can replace it */
  bool shared;       /* a shared library: its definitions count only where no object's or member's does */
  int group;         /* the --start-group it is in, or 0 */
  VEC(LinkSymbol) symbols;
  EmbeddedList ir;
  bool taken;        /* link_view_resolve: ld takes it */
} LinkUnit;

typedef struct {
  VEC(LinkUnit) units;
  StrList wrapped;   /* the symbols of --wrap */
  StrList forced;    /* the symbols of -u: undefined from the start, so that archives give them */
  bool muldefs;      /* --allow-multiple-definition, -z muldefs: the first strong definition wins */
  char *twice;       /* link_view_resolve: a symbol two units taken define (strong), or NULL */
  long twice_in[2];  /* ... those units */
  void *table;       /* link_view_resolve's symbol table */
} LinkView;

/* Whether the link step merges unit u's IR: ld takes u, and the line names u where the program's object
 * can take its place (an object inside -Wl, is linked as plain code). */
bool link_unit_merged(const LinkUnit *u);
/* Reads the objects and archives line names (archives of -lname as ld finds them). */
void link_view_read(const StrList *line, LinkView *v);
/* Decides which units ld takes. */
void link_view_resolve(LinkView *v);
/* The unit whose definition of name the program gets (after link_view_resolve), or NULL. */
const LinkUnit *link_view_definer(const LinkView *v, const char *name);
/* Prints, for each symbol the taken units use and none defines, an archive member that does define it
 * but that ld does not take where its archive stands (a link-order mistake). */
void link_view_note_untaken(const LinkView *v);
/* The name an undefined reference to name resolves to under --wrap (name itself when not wrapped). */
const char *link_view_wrapped(const LinkView *v, const char *name, char **owned);
void link_view_free(LinkView *v);

#endif
