/* lab_choice.h - multiple-choice questions of a lab (choice[KEY]: lines,
 * the right one first), lettered in an order drawn from the seed. */
#ifndef E2L_LAB_CHOICE_H
#define E2L_LAB_CHOICE_H

#include "lab.h"

#define LAB_CHOICES_MAX 6

/* The order the choices of key are shown in for lab->seed: order[i] is
 * the .lab index (0: the right one) of the choice lettered 'a' + i.
 * Returns how many choices key has (0 when none). */
size_t lab_choice_order(const struct lab *lab, const char *key,
			size_t order[LAB_CHOICES_MAX]);
/* The letter of key's right choice for lab->seed, 0 when key has none. */
char lab_choice_letter(const struct lab *lab, const char *key);
/* The key a goal line asks for ("  why = a|b|c  (...)") when it is one
 * with choices: its length, *key where it starts in line; else 0. */
size_t lab_choice_asks(const struct lab *lab, const char *line,
		       const char **key);
/* After a goal line that asks for a key with choices ("  why = a|b|c"),
 * the lettered choices in the seed's order, indented under the key;
 * nothing for any other line. */
void lab_choice_describe(const struct lab *lab, const char *line,
			 struct strbuf *sb);
/* NULL when every choice[KEY] has 2..6 choices, a goal line asking for
 * KEY and a check reading choice(KEY); else why not, *bad the key. */
const char *lab_choice_lint(const struct lab *lab, const char **bad);

#endif
