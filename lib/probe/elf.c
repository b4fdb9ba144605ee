/* What a compiled Python extension links and carries, read from its ELF
 * file without loading it: the library names in .dynstr (what DT_NEEDED
 * and symbol versions name) and marker texts in .rodata. Doctor uses it
 * for Horovod's extensions, whose build choices (HAVE_NCCL, HAVE_GPU) are
 * compile-time definitions that leave no other trace on disk. Only 64-bit
 * little-endian ELF (x86_64, aarch64) is read; anything else stays unread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/path.h"
#include "probe/probe.h"

#define SHDR_SIZE 64
#define MAX_SECTIONS 8192
#define MAX_TEXT (32u << 20)            /* .shstrtab, .dynstr */
#define MAX_RODATA (256ull << 20)
#define CHUNK (1u << 20)
#define OVERLAP 64                      /* longer than every marker */

static uint64_t le(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

int gw__parse_elf_header(const unsigned char *b, size_t n, gw_elf_header *h)
{
	memset(h, 0, sizeof(*h));
	if (n < 64 || memcmp(b, "\177ELF", 4))
		return GW_EPARSE;
	if (b[4] != 2 || b[5] != 1)
		return GW_EPARSE;   /* not ELFCLASS64 little-endian */
	h->shoff = le(b + 0x28, 8);
	h->shentsize = (unsigned)le(b + 0x3a, 2);
	h->shnum = (unsigned)le(b + 0x3c, 2);
	h->shstrndx = (unsigned)le(b + 0x3e, 2);
	if (h->shentsize != SHDR_SIZE || !h->shnum || h->shnum > MAX_SECTIONS || h->shstrndx >= h->shnum || !h->shoff)
		return GW_EPARSE;
	return 0;
}

int gw__parse_elf_section(const unsigned char *table, size_t n, unsigned i, gw_elf_section *s)
{
	const unsigned char *p;

	memset(s, 0, sizeof(*s));
	if ((size_t)i >= n / SHDR_SIZE)
		return GW_EPARSE;
	p = table + (size_t)i * SHDR_SIZE;
	s->name = (uint32_t)le(p, 4);
	s->type = (uint32_t)le(p + 4, 4);
	s->offset = le(p + 24, 8);
	s->size = le(p + 32, 8);
	s->link = (uint32_t)le(p + 40, 4);
	return 0;
}

#define DYN_SIZE 16
#define DT_NULL 0
#define DT_NEEDED 1
#define DT_RPATH 15
#define DT_RUNPATH 29
#define SHT_DYNAMIC 6

/* The string at off of a string table, or NULL when it starts outside it
 * or runs past its end. */
static const char *dyn_string(const unsigned char *str, size_t strn, uint64_t off)
{
	if (off >= strn || !memchr(str + off, '\0', strn - (size_t)off))
		return NULL;
	return (const char *)str + off;
}

int gw__parse_elf_dynamic(const unsigned char *dyn, size_t n, const unsigned char *str, size_t strn,
			  gw_elf_dynamic *out)
{
	memset(out, 0, sizeof(*out));
	if (n % DYN_SIZE)
		return GW_EPARSE;
	for (size_t i = 0; i < n / DYN_SIZE; i++) {
		uint64_t tag = le(dyn + i * DYN_SIZE, 8), val = le(dyn + i * DYN_SIZE + 8, 8);
		const char *s;

		if (tag == DT_NULL)
			break;
		if ((tag != DT_NEEDED && tag != DT_RPATH && tag != DT_RUNPATH) || !(s = dyn_string(str, strn, val)))
			continue;
		if (tag == DT_NEEDED) {
			if (out->nneeded < GW_ELF_MAX_NEEDED)
				gw__strlcpy(out->needed[out->nneeded++], s, sizeof(out->needed[0]));
			out->nneeded_all++;
		} else if (tag == DT_RPATH && !out->has_rpath) {
			out->has_rpath = true;
			gw__strlcpy(out->rpath, s, sizeof(out->rpath));
		} else if (tag == DT_RUNPATH && !out->has_runpath) {
			out->has_runpath = true;
			gw__strlcpy(out->runpath, s, sizeof(out->runpath));
		}
	}
	return 0;
}

/* [off, off + size) of the file in a new NUL-terminated buffer; NULL when
 * it is too large or cannot be read in full. */
static unsigned char *read_range(gw_probe_ctx *c, const char *path, uint64_t off, uint64_t size)
{
	unsigned char *buf;
	size_t got;

	if (size > MAX_TEXT || off + size < off)
		return NULL;
	if (!(buf = gw__malloc((size_t)size + 1)))
		return NULL;
	if (gw__read_at(c->root, path, off, buf, (size_t)size, &got) < 0 || got != size) {
		gw__free(buf);
		return NULL;
	}
	buf[size] = '\0';
	return buf;
}

static bool has(const unsigned char *buf, size_t n, const char *text)
{
	return memmem(buf, n, text, strlen(text)) != NULL;
}

/* "NCCL version 2.18.3+cuda12.1" → "2.18.3". */
static void banner_version(const unsigned char *buf, size_t n, const char *marker, char *out, size_t outsz)
{
	const unsigned char *p = memmem(buf, n, marker, strlen(marker));
	size_t k = 0;

	if (!p || out[0])
		return;
	p += strlen(marker);
	while (p < buf + n && k + 1 < outsz && ((*p >= '0' && *p <= '9') || *p == '.'))
		out[k++] = (char)*p++;
	out[k] = '\0';
}

static void scan_rodata_chunk(const unsigned char *buf, size_t n, gw_probe_elf *out)
{
	static const char nccl[] = "NCCL version ", rccl[] = "RCCL version ";

	if (has(buf, n, nccl) || has(buf, n, rccl)) {
		out->nccl_banner = true;
		banner_version(buf, n, nccl, out->nccl_version, sizeof(out->nccl_version));
		banner_version(buf, n, rccl, out->nccl_version, sizeof(out->nccl_version));
	}
	/* The CUDA runtime's own error text: cudart linked statically. */
	if (has(buf, n, "CUDA driver version is insufficient for CUDA runtime version"))
		out->cudart_static = true;
}

/* .rodata in chunks that overlap by more than a marker's length. */
static void scan_rodata(gw_probe_ctx *c, const char *path, const gw_elf_section *s, gw_probe_elf *out)
{
	unsigned char *buf = gw__malloc(CHUNK);
	uint64_t size = s->size < MAX_RODATA ? s->size : MAX_RODATA, done = 0;

	if (!buf)
		return;
	while (done < size) {
		size_t want = size - done < CHUNK ? (size_t)(size - done) : CHUNK, got;

		if (gw__read_at(c->root, path, s->offset + done, buf, want, &got) < 0 || !got)
			break;
		scan_rodata_chunk(buf, got, out);
		if (got < want || done + got >= size)
			break;
		done += got > OVERLAP ? got - OVERLAP : got;
	}
	gw__free(buf);
}

static void scan_dynstr(gw_probe_ctx *c, const char *path, const gw_elf_section *s, gw_probe_elf *out)
{
	unsigned char *buf = read_range(c, path, s->offset, s->size);

	if (!buf)
		return;
	out->needs_nccl = has(buf, (size_t)s->size, "libnccl.so") || has(buf, (size_t)s->size, "librccl.so");
	out->needs_gpu_runtime = has(buf, (size_t)s->size, "libcudart.so") || has(buf, (size_t)s->size, "libamdhip64.so");
	gw__free(buf);
}

void gw__probe_elf(gw_probe_ctx *c, const char *path, gw_probe_elf *out)
{
	unsigned char head[64], *table = NULL, *names = NULL;
	gw_elf_header h;
	gw_elf_section shstr, s;
	size_t got, tn;

	memset(out, 0, sizeof(*out));
	if (gw__read_at(c->root, path, 0, head, sizeof(head), &got) < 0 || gw__parse_elf_header(head, got, &h) < 0)
		return;
	tn = (size_t)h.shnum * SHDR_SIZE;
	if (!(table = read_range(c, path, h.shoff, tn)) || gw__parse_elf_section(table, tn, h.shstrndx, &shstr) < 0 ||
	    !(names = read_range(c, path, shstr.offset, shstr.size)))
		goto out;
	out->read = true;
	for (unsigned i = 1; i < h.shnum; i++) {
		const char *name;

		if (gw__parse_elf_section(table, tn, i, &s) < 0 || s.name >= shstr.size)
			continue;
		name = (const char *)names + s.name;
		if (!strcmp(name, ".dynstr"))
			scan_dynstr(c, path, &s, out);
		else if (!strcmp(name, ".rodata"))
			scan_rodata(c, path, &s, out);
	}
out:
	gw__free(table);
	gw__free(names);
}

bool gw__probe_elf_dynamic(gw_probe_ctx *c, const char *path, gw_elf_dynamic *out)
{
	unsigned char head[64], *table = NULL, *dyn = NULL, *str = NULL;
	gw_elf_header h;
	gw_elf_section s, strs;
	size_t got, tn;
	bool ok = false;

	memset(out, 0, sizeof(*out));
	if (gw__read_at(c->root, path, 0, head, sizeof(head), &got) < 0 || gw__parse_elf_header(head, got, &h) < 0)
		return false;
	tn = (size_t)h.shnum * SHDR_SIZE;
	if (!(table = read_range(c, path, h.shoff, tn)))
		return false;
	for (unsigned i = 1; i < h.shnum && !ok; i++) {
		if (gw__parse_elf_section(table, tn, i, &s) < 0 || s.type != SHT_DYNAMIC ||
		    gw__parse_elf_section(table, tn, s.link, &strs) < 0)
			continue;
		if ((dyn = read_range(c, path, s.offset, s.size)) && (str = read_range(c, path, strs.offset, strs.size)))
			ok = gw__parse_elf_dynamic(dyn, (size_t)s.size, str, (size_t)strs.size, out) == 0;
		gw__free(dyn);
		gw__free(str);
		dyn = str = NULL;
		break;   /* one dynamic section per file */
	}
	gw__free(table);
	return ok;
}
