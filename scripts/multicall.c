/* eventd, eventctl and eventd-web as one static binary (`make release-static`): the
 * Swift runtime, Foundation and ICU are linked in once instead of three times. The
 * program is chosen by the name it is run as (argv[0]'s last component; the package
 * installs eventctl and eventd-web as links to eventd), and each program's own entry
 * point runs unchanged: SwiftPM compiles an executable's top-level code as
 * MODULE_main, which scripts/link-multicall.py links in beside this file. */
#include <stdio.h>
#include <string.h>

int eventd_main(int argc, char **argv);
int eventctl_main(int argc, char **argv);
int eventd_web_main(int argc, char **argv);

int main(int argc, char **argv) {
    const char *name = argc > 0 ? argv[0] : "";
    const char *slash = strrchr(name, '/');
    if (slash != NULL) name = slash + 1;
    if (strcmp(name, "eventctl") == 0) return eventctl_main(argc, argv);
    if (strcmp(name, "eventd-web") == 0) return eventd_web_main(argc, argv);
    if (strcmp(name, "eventd") == 0) return eventd_main(argc, argv);
    fprintf(stderr, "%s: run this file as eventd, eventctl or eventd-web (a link of that name)\n", name);
    return 64;
}
