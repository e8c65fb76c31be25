#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H
// The wide-character curses (ncursesw): terminfo, the minimal-update screen, keys and
// the mouse. NCURSES_WIDECHAR before the header, as ncursesw's pkg-config flags say.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <langinfo.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

// Globals and macros Swift cannot import (or, in Swift 6, read safely), as functions.
static inline WINDOW *eventd_stdscr(void) { return stdscr; }
static inline WINDOW *eventd_curscr(void) { return curscr; }
static inline int eventd_color_pairs(void) { return COLOR_PAIRS; }
static inline SCREEN *eventd_newterm_stdio(void) { return newterm(NULL, stdout, stdin); }
static inline SCREEN *eventd_newterm_type(const char *type) { return newterm(type, stdout, stdin); }
static inline const char *eventd_codeset(void) { return nl_langinfo(CODESET); }
static inline int eventd_color_pair(int n) { return (int)COLOR_PAIR(n); }
static inline unsigned long eventd_mouse_wheel_up(void) { return BUTTON4_PRESSED; }
static inline unsigned long eventd_mouse_wheel_down(void) { return BUTTON5_PRESSED; }
static inline int eventd_key_resize(void) { return KEY_RESIZE; }
static inline int eventd_key_mouse(void) { return KEY_MOUSE; }
static inline int eventd_key_up(void) { return KEY_UP; }
static inline int eventd_key_down(void) { return KEY_DOWN; }
static inline int eventd_key_ppage(void) { return KEY_PPAGE; }
static inline int eventd_key_npage(void) { return KEY_NPAGE; }
static inline int eventd_key_home(void) { return KEY_HOME; }
static inline int eventd_key_end(void) { return KEY_END; }
static inline int eventd_key_enter(void) { return KEY_ENTER; }
static inline int eventd_key_backspace(void) { return KEY_BACKSPACE; }
static inline attr_t eventd_a_bold(void) { return A_BOLD; }
static inline attr_t eventd_a_dim(void) { return A_DIM; }
static inline attr_t eventd_a_reverse(void) { return A_REVERSE; }
static inline attr_t eventd_a_underline(void) { return A_UNDERLINE; }
static inline attr_t eventd_a_normal(void) { return A_NORMAL; }
// The colours terminfo gives `type` (-1: unknown to terminfo), read without a screen.
static inline int eventd_terminfo_colors(const char *type) {
    int error = 0;
    if (setupterm(type, 1, &error) != OK) return -1;
    int colors = tigetnum("colors");
    del_curterm(cur_term);
    return colors;
}
// tiparm is variadic, which Swift cannot call.
static inline char *eventd_tiparm1(const char *cap, int p1) { return tiparm(cap, p1); }
#endif
