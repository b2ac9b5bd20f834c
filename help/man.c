/* man.c - `e2layout --man`: the manual page help/gen_man.sh wrote at build
 * time from help/ and the command table's sources, compiled in. */
#include "man.h"

#include <string.h>

void help_write_man(struct sink *out)
{
	out_write(out, help_man_page, strlen(help_man_page));
}
