/* The explain catalogue, for the library's own checks. */
#ifndef GW_EXPLAIN_CATALOGUE_H
#define GW_EXPLAIN_CATALOGUE_H

/* Compile every row's regex and veto as the scanner would, and free them:
 * 0, or GW_EGENERIC naming the first row that does not compile. The scanner
 * compiles a row's regexes only when a line first holds its literal, so
 * the unit tests call this to find a broken row before a user's log does. */
int gw__explain_compile_all(void);

#endif
