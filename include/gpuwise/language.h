/* Human texts in the user's language (docs/contracts.md "Languages").
 *
 * gpuwise's texts (doctor titles, evidence and fixes, explain causes and
 * fixes, the CLI's output) come from one GNU gettext catalogue, domain
 * "gpuwise". The language follows the process locale (LC_MESSAGES, and
 * LANGUAGE once the locale is not "C"): the application chooses it with
 * setlocale(3), or names it with gw_language_set(); the library never
 * changes the locale. IDs, JSON keys and
 * identifier values never change with the language. */
#ifndef GPUWISE_LANGUAGE_H
#define GPUWISE_LANGUAGE_H

/* The catalogue's translation of msgid in the current language, or msgid
 * itself (also for NULL: ""). The result lives as long as the process. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format_arg(1)))
#endif
const char *gw_translate(const char *msgid);

/* The same for a text with a count: msgid when n is 1, plural otherwise in
 * English; the catalogue's form for n in the current language (Chinese
 * has one form for every n). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format_arg(1), format_arg(2)))
#endif
const char *gw_translate_n(const char *msgid, const char *plural, unsigned long n);

/* Translate with the catalogue of this language ("zh_CN", "zh_CN.UTF-8";
 * "C", "en" or "": English), whatever the process locale, in every thread;
 * NULL: follow the process locale again (the default). For a program that
 * chooses the language itself rather than with setlocale() (the Python
 * module: the same variables as the CLI, see docs/languages.md). The
 * catalogue is read once and kept. Returns 0, or GW_ENOTFOUND (nothing
 * changed) when gw_locale_dir() has no catalogue for it. */
int gw_language_set(const char *language);

/* Where the catalogues are read from: $GPUWISE_LOCALEDIR when set, else
 * the folder "locale" next to the file holding gpuwise's code (the build
 * tree: build/locale; a Python package: gpuwise/locale) when it exists,
 * else the installed $(DATADIR)/locale. */
const char *gw_locale_dir(void);

#endif
