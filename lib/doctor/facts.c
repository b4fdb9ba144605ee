/* Facts several rules share: CUDA of a wheel tag, the best PyTorch wheel
 * for this machine, compute capabilities, device-node access, names. */
#include <string.h>

#include "core/util.h"
#include "core/path.h"
#include "doctor/rule.h"

bool gw__doc_variant_cuda(const char *variant, gw_ver *out)
{
	size_t n;
	unsigned v = 0;

	if (!variant || strncmp(variant, "cu", 2))
		return false;
	n = strlen(variant + 2);
	if (n < 3 || n > 4 || strspn(variant + 2, "0123456789") != n)
		return false;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (unsigned)(variant[2 + i] - '0');
	gw__version_set(out, 2, v / 10, v % 10, 0);
	return true;
}

void gw__doc_fw_name(const gw_probe_framework *f, char *buf, size_t n)
{
	static const char *const pretty[] = { "PyTorch", "TensorFlow", "JAX", "CuPy", "Horovod" };
	const char *name = (unsigned)f->kind < GW_ARRAY_SIZE(pretty) ? pretty[f->kind] : "framework";

	if (f->kind == GW_FW_CUPY && f->dist[0])
		name = f->dist;
	else if (f->kind == GW_FW_TENSORFLOW && f->dist[0] && strcmp(f->dist, "tensorflow"))
		name = f->dist;
	if (GW_VERSION_KNOWN(f->version))
		gw__doc_fmt(buf, n, "%s %s", name, f->version.text);
	else
		gw__doc_fmt(buf, n, "%s", name);
}

bool gw__doc_cc(const gw__doctor *d, int i, bool is_pci, unsigned *major, unsigned *minor)
{
	if (!is_pci) {
		const gw_device_info *di = gw_device_get(d->ctx, i);

		if (di && GW_VALID(di->cc_major) && GW_VALID(di->cc_minor)) {
			*major = (unsigned)di->cc_major.v;
			*minor = (unsigned)di->cc_minor.v;
			return true;
		}
		return false;
	}
	if (d->p->gpus[i].model && d->p->gpus[i].model->cc)
		return gw__tbl_cc(d->p->gpus[i].model->cc, major, minor) == 0;
	return false;
}

bool gw__doc_node_ok(const gw__doctor *d, const gw_probe_node *n)
{
	gw_file_stat st;
	unsigned m;

	if (!n->exists)
		return true;   /* missing is device-node-missing, not a permission problem */
	if (!d->fake_root)
		return n->accessible;
	/* A fake tree's files belong to whoever checked it out: access() says
	 * nothing about the modelled user. Judge the mode bits and the groups
	 * of the tree's /etc/group instead. */
	if (gw__path_stat(d->p->root, n->path, &st) < 0)
		return n->accessible;
	m = st.mode;
	if ((m & 06) == 06)
		return true;
	if ((m & 060) == 060 && n->user_in_group)
		return true;
	/* The owner's bits apply whatever the groups: a node mode 0600 owned by
	 * this user is usable though the user is in no GPU group. */
	return (m & 0600) == 0600 && st.uid == d->uid;
}

bool gw__doc_gpu_usable(const gw__doctor *d, int i)
{
	const gw_device_info *di = gw_device_get(d->ctx, i);

	return di && di->health == GW_HEALTH_OK && GW_VALID(di->name) &&
	       (di->vendor == GW_VENDOR_NVIDIA || di->vendor == GW_VENDOR_AMD);
}

int gw__doc_usable_gpus(const gw__doctor *d)
{
	int k = 0;

	for (int i = 0; i < d->ndev; i++)
		k += gw__doc_gpu_usable(d, i);
	return k;
}
