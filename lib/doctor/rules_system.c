/* Doctor rules for the machine itself: hardware (PCI, lost GPUs, ECC,
 * remapped rows, PCIe, Xid), the driver (modules, libraries, device
 * nodes, ROCm), live state (clocks, memory, compute mode) and the
 * container. One function per finding id. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* data/rocm_os.tsv: the operating systems each ROCm release supports. */
#define GW_GEN_TABLE_ROWS
#include "rocm_os.h"
#undef GW_GEN_TABLE_ROWS

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "core/vendor.h"
#include "core/proc.h"
#include "doctor/rule.h"

#define EV 2048
#define FIX 1024

const char *gw__doc_sep(void)
{
	/* TRANSLATORS: between two items of a finding's evidence */
	return _("; ");
}

const char *gw__doc_colon(void)
{
	/* TRANSLATORS: before the message that explains a fact ("failed: ...") */
	return _(": ");
}

const char *gw__doc_comma(void)
{
	/* TRANSLATORS: between two facts of one item ("CUDA 12.4, cuDNN 9.1") */
	return _(", ");
}

/* Each item above ends in the separator ("; ", "；" in Chinese: a
 * translation chooses it): the last one's goes. */
static void drop_last_sep(char *ev)
{
	const char *sep = gw__doc_sep();
	size_t l = strlen(ev), k = strlen(sep);

	if (l >= k && !strcmp(ev + l - k, sep))
		ev[l - k] = '\0';
	else
		while (l && (ev[l - 1] == ' ' || ev[l - 1] == ';'))
			ev[--l] = '\0';
}

static const gw_device_info *dev(const gw__doctor *d, int i)
{
	return gw_device_get(d->ctx, i);
}

/* "GPU 2 (NVIDIA A100-SXM4-80GB, 0000:47:00.0)" */
static void dev_label(const gw_device_info *di, char *buf, size_t n)
{
	gw__doc_fmt(buf, n, "GPU %d (%s%s%s)", di->index, GW_VALID(di->name) ? di->name.s : _("unknown"),
		 GW_VALID(di->pci_bus_id) ? ", " : "", GW_VALID(di->pci_bus_id) ? di->pci_bus_id.s : "");
}

static bool valid_nonzero(const gw_u64 *f)
{
	return GW_VALID(*f) && f->v > 0;
}

static bool nvidia_bound(const gw__doctor *d)
{
	for (size_t i = 0; i < d->p->ngpus; i++)
		if (d->p->gpus[i].vendor == GW_VENDOR_NVIDIA && !strcmp(d->p->gpus[i].driver, "nvidia"))
			return true;
	return false;
}

static bool nvidia_module_in_use(const gw__doctor *d)
{
	return d->p->nvidia.module_loaded || nvidia_bound(d);
}

static const gw_backend_status *backend(const gw__doctor *d, gw_backend_id id)
{
	return d->ctx ? gw_context_backend_by_id(d->ctx, id) : NULL;
}

/* ---- hardware ---------------------------------------------------------------- */

static bool same_kind(const gw_device_info *a, const gw_device_info *b)
{
	return !strcmp(a->name.s, b->name.s) && !strcmp(a->kernel_driver.s, b->kernel_driver.s) &&
	       a->health == b->health && !strcmp(a->backend, b->backend);
}

static const char *short_bus_id(const gw_device_info *di)
{
	/* "0000:18:00.0" reads as "18:00.0" in a list of many. */
	if (!GW_VALID(di->pci_bus_id))
		return "?";
	return strncmp(di->pci_bus_id.s, "0000:", 5) ? di->pci_bus_id.s : di->pci_bus_id.s + 5;
}

/* One entry per kind of GPU ("8× NVIDIA H100 80GB HBM3 at 18:00.0, 2a:00.0, ...
 * (driver nvidia, via nvml, ok)"), so an 8-GPU node reads in one line. */
static void found_gpus(gw__doctor *d)
{
	char ev[EV] = "", title[256];
	bool *done;
	int n = 0, readable = 0;

	if (d->ndev > 0 && (done = gw__calloc((size_t)d->ndev, sizeof(*done)))) {
		for (int i = 0; i < d->ndev; i++) {
			const gw_device_info *a = dev(d, i);
			int count = 0;

			if (done[i])
				continue;
			for (int j = i; j < d->ndev; j++)
				if (!done[j] && same_kind(a, dev(d, j)))
					count++;
			gw__doc_cat(ev, sizeof(ev), _("%s%d× %s at"), n++ ? gw__doc_sep() : "", count,
				    GW_VALID(a->name) ? a->name.s : _("unnamed GPU"));
			for (int j = i, k = 0; j < d->ndev; j++) {
				if (done[j] || !same_kind(a, dev(d, j)))
					continue;
				done[j] = true;
				gw__doc_cat(ev, sizeof(ev), "%s %s", k++ ? "," : "", short_bus_id(dev(d, j)));
			}
			gw__doc_cat(ev, sizeof(ev), _(" (driver %s, via %s, %s)"), a->kernel_driver.s[0] ? a->kernel_driver.s : _("none"),
				    a->backend, gw_health_name(a->health));
		}
		gw__free(done);
	}
	/* GPUs the PCI probe saw that no backend turned into a device. */
	for (size_t i = 0; i < d->p->ngpus && d->ndev == 0; i++) {
		const gw_probe_pci_gpu *g = &d->p->gpus[i];

		gw__doc_cat(ev, sizeof(ev), _("%s%s %04x:%04x%s%s, driver %s"), n++ ? gw__doc_sep() : "", g->bus_id, g->vendor_id,
			    g->device_id, g->model ? " " : "", g->model ? g->model->name : "",
			    g->driver[0] ? g->driver : _("none"));
	}
	if (!n)
		return;
	for (int i = 0; i < d->ndev; i++)
		readable += dev(d, i)->health == GW_HEALTH_OK && dev(d, i)->backend_id != GW_BACKEND_ID_PCI;
	gw__doc_fmt(title, sizeof(title), _("%zu GPU%s on the PCI bus, %d readable by the GPU libraries"), d->p->ngpus,
		 d->p->ngpus == 1 ? "" : "s", readable);
	gw__doc_add(d, "found-gpus", "hardware", GW_SEVERITY_INFO, title, ev, "");
}

static void rule_no_gpu(gw__doctor *d)
{
	char ev[EV];

	if (d->p->ngpus || d->ndev > 0 || d->p->amd.nagents)
		return;
	gw__doc_fmt(ev, sizeof(ev), _("no display controller of NVIDIA, AMD or Intel in %s/sys/bus/pci/devices; "),
		 d->fake_root ? d->p->root : "");
	if (d->ctx) {
		int nb = 0;
		const gw_backend_status *st = gw_context_backends(d->ctx, &nb);

		for (int i = 0; i < nb; i++) {
			char msg[sizeof(st[i].message) * 2];
			const char *m = gw_context_backend_message(d->ctx, &st[i], msg, sizeof(msg));

			/* TRANSLATORS: one backend: its name, state, then " — " and its message when it has one */
			gw__doc_cat(ev, sizeof(ev), _("%s: %s%s%s; "), st[i].name, gw_backend_state_name(st[i].state),
				    m[0] ? " — " : "", m);
		}
	}
	gw__doc_cat(ev, sizeof(ev), _("no KFD GPU node"));
	gw__doc_add(d, "no-gpu", "hardware", -1, NULL, ev,
		    "Run on a machine (or VM type) with a GPU, or pass one through: "
		    "`docker run --gpus all ...` for NVIDIA, `--device=/dev/kfd --device=/dev/dri` for AMD.");
}

static void rule_gpu_lost(gw__doctor *d)
{
	for (int i = 0; i < d->ndev; i++) {
		char ev[EV], l[160], why[1024];

		if (dev(d, i)->health != GW_HEALTH_LOST)
			continue;
		dev_label(dev(d, i), l, sizeof(l));
		gw__doc_fmt(ev, sizeof(ev), "%s: %s", l,
			    dev(d, i)->health_reason[0] ? gw_device_health_reason(d->ctx, i, why, sizeof(why)) : _("GPU is lost"));
		for (size_t x = 0; x < d->p->nxids; x++)
			if (d->p->xids[x].xid == 79)
				gw__doc_cat(ev, sizeof(ev), _("; kernel log: %s"), d->p->xids[x].last_line);
		gw__doc_add(d, "gpu-lost", "hardware", -1, NULL, ev,
			    "Stop the jobs on this node and reboot it (a lost GPU does not come back without a reset); "
			    "then check power cabling, PCIe seating and temperatures, and run `nvidia-smi -q` and "
			    "`dcgmi diag -r 2`; ask for an RMA if it repeats.");
	}
}

static void rule_ecc(gw__doctor *d)
{
	for (int i = 0; i < d->ndev; i++) {
		const gw_device_sample *s = &d->sample[i];
		char ev[EV], l[160];
		bool vol, agg;

		if (!d->have_sample[i])
			continue;
		vol = valid_nonzero(&s->ecc_uncorrected_volatile);
		agg = valid_nonzero(&s->ecc_uncorrected_aggregate);
		if (!vol && !agg)
			continue;
		dev_label(dev(d, i), l, sizeof(l));
		gw__doc_fmt(ev, sizeof(ev), _("%s: uncorrected ECC errors since boot %llu, lifetime %llu"), l,
			 (unsigned long long)(GW_VALID(s->ecc_uncorrected_volatile) ? s->ecc_uncorrected_volatile.v : 0),
			 (unsigned long long)(GW_VALID(s->ecc_uncorrected_aggregate) ? s->ecc_uncorrected_aggregate.v : 0));
		gw__doc_add(d, "ecc-errors", "hardware", vol ? GW_SEVERITY_ERROR : GW_SEVERITY_WARNING, NULL, ev,
			    vol ? N_("Drain the GPU, reset it (`sudo nvidia-smi -r -i N` with no processes, or reboot), "
				     "then run `dcgmi diag -r 3`; ask for an RMA if errors return.")
				: N_("Errors were recorded earlier in the GPU's life; watch `nvidia-smi -q -d ECC` and run "
				     "`dcgmi diag -r 3` if new ones appear."));
	}
}

static void rule_remapped_rows(gw__doctor *d)
{
	for (int i = 0; i < d->ndev; i++) {
		const gw_device_sample *s = &d->sample[i];
		char ev[EV], l[160];

		if (!d->have_sample[i] || !(valid_nonzero(&s->remapped_pending) || valid_nonzero(&s->remapped_failure)))
			continue;
		dev_label(dev(d, i), l, sizeof(l));
		gw__doc_fmt(ev, sizeof(ev), _("%s: remapped rows pending %s, remapping failure %s, uncorrectable %llu"), l,
			 valid_nonzero(&s->remapped_pending) ? _("yes") : _("no"),
			 valid_nonzero(&s->remapped_failure) ? _("yes") : _("no"),
			 (unsigned long long)(GW_VALID(s->remapped_uncorrectable) ? s->remapped_uncorrectable.v : 0));
		gw__doc_add(d, "remapped-rows-pending", "hardware",
			    valid_nonzero(&s->remapped_failure) ? GW_SEVERITY_ERROR : -1, NULL, ev,
			    valid_nonzero(&s->remapped_failure)
				    ? N_("Row remapping failed: take the GPU out of service and ask for an RMA.")
				    : N_("Reset the GPU when it is idle (`sudo nvidia-smi -r -i N`) or reboot, so the "
					 "remapping takes effect."));
	}
}

static void rule_pcie(gw__doctor *d)
{
	for (int i = 0; i < d->ndev; i++) {
		const gw_device_info *di = dev(d, i);
		const gw_device_sample *s = &d->sample[i];
		char ev[EV], l[160];
		bool narrow, slow;

		if (!d->have_sample[i])
			continue;
		narrow = GW_VALID(s->pcie_width) && GW_VALID(di->pcie_max_width) && s->pcie_width.v < di->pcie_max_width.v;
		/* Idle GPUs drop to Gen1 to save power: speed only counts under load. */
		slow = GW_VALID(s->pcie_gen) && GW_VALID(di->pcie_max_gen) && s->pcie_gen.v < di->pcie_max_gen.v &&
		       GW_VALID(s->gpu_util) && s->gpu_util.v >= 50;
		if (!narrow && !slow)
			continue;
		dev_label(di, l, sizeof(l));
		gw__doc_fmt(ev, sizeof(ev), _("%s: link Gen%llu x%llu, the GPU and slot allow Gen%llu x%llu"), l,
			 (unsigned long long)s->pcie_gen.v, (unsigned long long)s->pcie_width.v,
			 (unsigned long long)di->pcie_max_gen.v, (unsigned long long)di->pcie_max_width.v);
		if (slow)
			gw__doc_cat(ev, sizeof(ev), _(" (at %llu%% utilisation)"), (unsigned long long)s->gpu_util.v);
		gw__doc_add(d, "pcie-link-degraded", "hardware", -1, NULL, ev,
			    "Reseat the card, use the full-length slot (check the board manual for lanes shared with "
			    "M.2 slots), check riser cables and the BIOS PCIe setting; compare with `nvidia-smi -q -d PCIE`.");
	}
}

static void rule_xid(gw__doctor *d)
{
	for (size_t x = 0; x < d->p->nxids; x++) {
		const gw_probe_xid *xi = &d->p->xids[x];
		char ev[EV], title[256], fix[FIX];

		gw__doc_fmt(title, sizeof(title), _("Kernel log shows Xid %u%s%s on PCI %s"), xi->xid, xi->info ? " " : "",
			 xi->info ? xi->info->mnemonic : "", xi->pci);
		gw__doc_fmt(ev, sizeof(ev), _("%u time%s in %s%s%s; last: %s"), xi->count, xi->count == 1 ? "" : "s",
			 d->p->kernel_log, xi->info ? gw__doc_sep() : "", xi->info ? gw_translate(xi->info->meaning) : "", xi->last_line);
		if (xi->info)
			gw__doc_fmt(fix, sizeof(fix), _("%s (NVIDIA: %s)."), gw_translate(xi->info->advice), xi->info->bucket);
		else
			gw__doc_fmt(fix, sizeof(fix), _("Look Xid %u up in NVIDIA's Xid catalogue "
				 "(docs.nvidia.com/deploy/xid-errors) and follow its resolution."), xi->xid);
		gw__doc_add(d, "xid-errors", "hardware", -1, title, ev, fix);
	}
}

void gw__doctor_rules_hardware(gw__doctor *d)
{
	found_gpus(d);
	rule_no_gpu(d);
	rule_gpu_lost(d);
	rule_ecc(d);
	rule_remapped_rows(d);
	rule_pcie(d);
	rule_xid(d);
}

/* ---- driver -------------------------------------------------------------------- */

static void found_driver(gw__doctor *d)
{
	const gw_probe_nvidia *nv = &d->p->nvidia;
	char ev[EV] = "", title[256];

	if (!nvidia_module_in_use(d))
		return;
	if (GW_VERSION_KNOWN(nv->module_version))
		gw__doc_cat(ev, sizeof(ev), _("kernel module %s (%s)"), nv->module_version.text,
			    nv->flavor == GW_KMOD_OPEN ? _("open") : nv->flavor == GW_KMOD_PROPRIETARY ? _("proprietary") : _("flavour unknown"));
	else
		gw__doc_cat(ev, sizeof(ev), _("kernel module loaded, version unknown"));
	for (size_t i = 0; i < nv->nnvml && i < 3; i++)
		gw__doc_cat(ev, sizeof(ev), "%s%s/%s (%s)", gw__doc_sep(), nv->nvml[i].dir, nv->nvml[i].file, nv->nvml[i].origin);
	if (GW_VERSION_KNOWN(d->driver_max_cuda))
		gw__doc_cat(ev, sizeof(ev), _("; runs CUDA up to %s"), d->driver_max_cuda.text);
	if (GW_VERSION_KNOWN(d->driver_max_cuda))
		gw__doc_fmt(title, sizeof(title), _("NVIDIA driver %s, CUDA %s"),
			    GW_VERSION_KNOWN(d->driver) ? d->driver.text : _("(version unknown)"), d->driver_max_cuda.text);
	else
		gw__doc_fmt(title, sizeof(title), _("NVIDIA driver %s"),
			    GW_VERSION_KNOWN(d->driver) ? d->driver.text : _("(version unknown)"));
	gw__doc_add(d, "found-driver", "driver", GW_SEVERITY_INFO, title, ev, "");
}

static void rule_nvidia_driver_not_loaded(gw__doctor *d)
{
	char ev[EV] = "";

	if (nvidia_module_in_use(d))
		return;
	/* A GPU that vfio-pci or pci-stub holds is reserved on purpose
	 * (gpu-bound-to-other-driver says so): loading nvidia would not
	 * reach it, so it is no evidence that the driver is missing. */
	for (size_t i = 0; i < d->p->ngpus; i++)
		if (d->p->gpus[i].vendor == GW_VENDOR_NVIDIA &&
		    (!d->p->gpus[i].driver[0] || !strcmp(d->p->gpus[i].driver, "nouveau")))
			gw__doc_cat(ev, sizeof(ev), _("%s%s (%04x:%04x) bound to %s"), ev[0] ? gw__doc_sep() : "", d->p->gpus[i].bus_id,
				    d->p->gpus[i].vendor_id, d->p->gpus[i].device_id,
				    d->p->gpus[i].driver[0] ? d->p->gpus[i].driver : _("no driver"));
	if (!ev[0])
		return;
	gw__doc_cat(ev, sizeof(ev), _("; no nvidia module in /proc/modules, no /proc/driver/nvidia"));
	{
		const gw_backend_status *st = backend(d, GW_BACKEND_ID_NVML);

		if (st && st->vendor_code_name[0])
			gw__doc_cat(ev, sizeof(ev), "%snvmlInit: %s", gw__doc_sep(), st->vendor_code_name);
	}
	gw__doc_add(d, "nvidia-driver-not-loaded", "driver", -1, NULL, ev,
		    "Load it with `sudo modprobe nvidia`; if that fails, check `dmesg | grep -i nvidia` (Secure Boot "
		    "blocks unsigned modules; a kernel update needs the DKMS module rebuilt) or install the driver "
		    "(`sudo ubuntu-drivers install` or NVIDIA's packages), then reboot.");
}

static void rule_nouveau(gw__doctor *d)
{
	char ev[EV] = "";

	for (size_t i = 0; i < d->p->ngpus; i++)
		if (d->p->gpus[i].vendor == GW_VENDOR_NVIDIA && !strcmp(d->p->gpus[i].driver, "nouveau"))
			gw__doc_cat(ev, sizeof(ev), _("%s%s is bound to nouveau"), ev[0] ? gw__doc_sep() : "", d->p->gpus[i].bus_id);
	if (!ev[0])
		return;
	gw__doc_add(d, "nouveau-bound", "driver", -1, NULL, ev,
		    "Blacklist nouveau and install NVIDIA's driver: `echo -e 'blacklist nouveau\\noptions nouveau "
		    "modeset=0' | sudo tee /etc/modprobe.d/blacklist-nouveau.conf && sudo update-initramfs -u`, "
		    "install the driver, reboot.");
}

static void rule_nvml_missing(gw__doctor *d)
{
	const gw_backend_status *st = backend(d, GW_BACKEND_ID_NVML);
	char ev[EV], msg[sizeof(st->message) * 2];
	const char *m;

	if (!st || st->state != GW_BACKEND_LIBRARY_MISSING || !nvidia_module_in_use(d))
		return;
	m = gw_context_backend_message(d->ctx, st, msg, sizeof(msg));
	gw__doc_fmt(ev, sizeof(ev), _("kernel module %s loaded; dlopen(%s) failed%s%s"),
		 GW_VERSION_KNOWN(d->p->nvidia.module_version) ? d->p->nvidia.module_version.text : _("(version unknown)"),
		 st->library[0] ? st->library : "libnvidia-ml.so.1", m[0] ? gw__doc_colon() : "", m);
	gw__doc_add(d, "nvml-library-missing", "driver", -1, NULL, ev,
		    GW_VERSION_KNOWN(d->p->nvidia.module_version)
			    ? N_("Install the user-space half of the same driver release (e.g. `sudo apt install "
			      "libnvidia-compute-<branch>`), or in a container start it with `--gpus all` so the "
			      "NVIDIA runtime mounts the libraries; check `ldconfig -p | grep nvidia-ml`.")
			    : N_("Install the NVIDIA user-space driver libraries; check `ldconfig -p | grep nvidia-ml`."));
}

static void rule_driver_library_mismatch(gw__doctor *d)
{
	const gw_probe_nvidia *nv = &d->p->nvidia;
	const gw_backend_status *nvml = backend(d, GW_BACKEND_ID_NVML), *cuda = backend(d, GW_BACKEND_ID_CUDA);
	const gw_driver_info *di = d->ctx ? gw_context_driver(d->ctx) : NULL;
	gw_ver user = { 0 };
	bool code = false;
	char ev[EV] = "", fix[FIX];

	if (nvml && !strcmp(nvml->vendor_code_name, "LIB_RM_VERSION_MISMATCH"))
		code = true;
	if (cuda && strstr(cuda->vendor_code_name, "SYSTEM_DRIVER_MISMATCH"))
		code = true;
	if (di && GW_VALID(di->driver_version))
		gw__version_parse(di->driver_version.s, &user);
	else if (nv->nnvml && GW_VERSION_KNOWN(nv->nvml[0].version))
		user = nv->nvml[0].version;
	if (!code && !(GW_VERSION_KNOWN(user) && GW_VERSION_KNOWN(nv->module_version) &&
		       gw__version_cmp(&user, &nv->module_version) != 0))
		return;
	gw__doc_cat(ev, sizeof(ev), _("kernel module %s"),
		    GW_VERSION_KNOWN(nv->module_version) ? nv->module_version.text : _("(version unknown)"));
	if (GW_VERSION_KNOWN(user))
		gw__doc_cat(ev, sizeof(ev), _(", user-space library %s"), user.text);
	if (nv->nnvml)
		gw__doc_cat(ev, sizeof(ev), " (%s/%s)", nv->nvml[0].dir, nv->nvml[0].file);
	if (code && nvml && nvml->vendor_code_name[0])
		gw__doc_cat(ev, sizeof(ev), "%snvmlInit: %s", gw__doc_sep(), nvml->vendor_code_name);
	if (code && cuda && cuda->vendor_code_name[0])
		gw__doc_cat(ev, sizeof(ev), "%scuInit: %s", gw__doc_sep(), cuda->vendor_code_name);
	gw__doc_fmt(fix, sizeof(fix), _("Reboot so the kernel loads the module that matches the installed libraries "
		 "(after a driver upgrade the old module stays loaded); without a reboot: stop every GPU process, "
		 "`sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia`."));
	gw__doc_add(d, "driver-library-mismatch", "driver", -1, NULL, ev, fix);
}

static void rule_device_nodes(gw__doctor *d)
{
	const gw_probe_nvidia *nv = &d->p->nvidia;
	char ev[EV] = "";
	int bound = 0;

	if (!nvidia_module_in_use(d) || d->p->sys.wsl)
		return;
	if (!nv->ctl.exists)
		gw__doc_cat(ev, sizeof(ev), _("/dev/nvidiactl absent; "));
	if (!nv->uvm.exists)
		gw__doc_cat(ev, sizeof(ev), _("/dev/nvidia-uvm absent (nvidia_uvm %s); "),
			    nv->uvm_loaded ? _("loaded") : _("not loaded"));
	for (size_t i = 0; i < d->p->ngpus; i++)
		bound += d->p->gpus[i].vendor == GW_VENDOR_NVIDIA && !strcmp(d->p->gpus[i].driver, "nvidia");
	for (int i = 0; i < d->ndev; i++) {
		const gw_device_info *di = dev(d, i);
		char path[32];
		bool present = false;

		if (di->vendor != GW_VENDOR_NVIDIA || !GW_VALID(di->minor_number))
			continue;
		gw__doc_fmt(path, sizeof(path), "/dev/nvidia%llu", (unsigned long long)di->minor_number.v);
		for (size_t k = 0; k < nv->ndev; k++)
			present |= nv->dev[k].exists && !strcmp(nv->dev[k].path, path);
		if (!present)
			gw__doc_cat(ev, sizeof(ev), _("%s absent (GPU %d); "), path, di->index);
	}
	if (!ev[0] && bound > (int)nv->ndev)
		gw__doc_cat(ev, sizeof(ev), _("%d GPU%s bound to nvidia but %zu /dev/nvidiaN node%s; "), bound,
			    bound == 1 ? "" : "s", nv->ndev, nv->ndev == 1 ? "" : "s");
	if (!ev[0])
		return;
	drop_last_sep(ev);
	gw__doc_add(d, "device-node-missing", "driver", -1, NULL, ev,
		    d->p->sys.container
			    ? N_("Start the container with the NVIDIA runtime (`docker run --gpus all` or "
			      "`--runtime=nvidia`), which creates the device nodes.")
			    : N_("Create the nodes with `sudo nvidia-modprobe -u -c=0` (or `sudo modprobe nvidia_uvm`), "
			      "or reboot; persistent setups enable nvidia-persistenced."));
}

static void node_evidence(const gw_probe_node *n, char *ev, size_t evn)
{
	gw__doc_cat(ev, evn, _("%s%s not readable and writable (group %s%s%u, user %s in it)"), ev[0] ? gw__doc_sep() : "", n->path,
		    n->group[0] ? n->group : "", n->group[0] ? "/" : "gid ", n->gid, n->user_in_group ? _("is") : _("not"));
}

static void rule_device_permission(gw__doctor *d)
{
	const gw_probe_nvidia *nv = &d->p->nvidia;
	char ev[EV] = "";

	if (!gw__doc_node_ok(d, &nv->ctl))
		node_evidence(&nv->ctl, ev, sizeof(ev));
	if (!gw__doc_node_ok(d, &nv->uvm))
		node_evidence(&nv->uvm, ev, sizeof(ev));
	for (size_t i = 0; i < nv->ndev; i++)
		if (!gw__doc_node_ok(d, &nv->dev[i]))
			node_evidence(&nv->dev[i], ev, sizeof(ev));
	if (!ev[0])
		return;
	gw__doc_add(d, "device-permission-denied", "driver", -1, NULL, ev,
		    "Add yourself to the group that owns the nodes (`sudo usermod -aG video $USER`, then log in "
		    "again), or fix the udev rule / driver parameter `NVreg_DeviceFileMode=0666`; in a container "
		    "pass the devices with `--gpus all`.");
}

static bool amd_loaded(const gw__doctor *d)
{
	if (d->p->amd.amdgpu_loaded)
		return true;
	for (size_t i = 0; i < d->p->ngpus; i++)
		if (!strcmp(d->p->gpus[i].driver, "amdgpu"))
			return true;
	return false;
}

static void found_rocm(gw__doctor *d)
{
	const gw_probe_amd *a = &d->p->amd;
	char ev[EV] = "", title[256];

	if (!d->namd)
		return;
	gw__doc_cat(ev, sizeof(ev), _("amdgpu %s%s%s"), amd_loaded(d) ? _("loaded") : _("not loaded"),
		    GW_VERSION_KNOWN(a->amdgpu_version) ? " " : "", GW_VERSION_KNOWN(a->amdgpu_version) ? a->amdgpu_version.text : "");
	for (size_t i = 0; i < a->nagents; i++)
		gw__doc_cat(ev, sizeof(ev), _("; KFD node %u: %s%s%s"), a->agent[i].node, a->agent[i].gfx,
			    a->agent[i].info ? " " : "", a->agent[i].info ? a->agent[i].info->name : "");
	if (a->hsa_override[0])
		gw__doc_cat(ev, sizeof(ev), _("; HSA_OVERRIDE_GFX_VERSION=%s (reports %s)"), a->hsa_override, a->hsa_override_gfx);
	gw__doc_fmt(title, sizeof(title), _("ROCm %s%s"), GW_VERSION_KNOWN(a->rocm) ? a->rocm.text : _("not found"),
		 a->rocm_path[0] ? "" : "");
	if (a->rocm_path[0])
		gw__doc_cat(ev, sizeof(ev), _("; ROCm at %s"), a->rocm_path);
	gw__doc_add(d, "found-rocm", "driver", GW_SEVERITY_INFO, title, ev, "");
}

static void rule_amdgpu_not_loaded(gw__doctor *d)
{
	const gw_probe_amd *a = &d->p->amd;
	char ev[EV] = "";
	bool any = false;

	for (size_t i = 0; i < d->p->ngpus; i++)
		if (d->p->gpus[i].vendor == GW_VENDOR_AMD) {
			any = true;
			gw__doc_cat(ev, sizeof(ev), _("%s (%04x:%04x) bound to %s; "), d->p->gpus[i].bus_id, d->p->gpus[i].vendor_id,
				    d->p->gpus[i].device_id, d->p->gpus[i].driver[0] ? d->p->gpus[i].driver : _("no driver"));
		}
	if (!any || (amd_loaded(d) && a->kfd.exists))
		return;
	gw__doc_cat(ev, sizeof(ev), _("amdgpu %s, /dev/kfd %s"), amd_loaded(d) ? _("loaded") : _("not loaded"),
		    a->kfd.exists ? _("present") : _("absent"));
	gw__doc_add(d, "amdgpu-not-loaded", "driver", -1, NULL, ev,
		    "Load it with `sudo modprobe amdgpu` and read `dmesg | grep -iE 'amdgpu|kfd'`; install or "
		    "rebuild the driver (`sudo apt install amdgpu-dkms`, then reboot). In a container pass "
		    "`--device=/dev/kfd --device=/dev/dri`.");
}

static void rule_rocm_permission(gw__doctor *d)
{
	const gw_probe_amd *a = &d->p->amd;
	char ev[EV] = "";

	if (!d->namd)
		return;
	if (!gw__doc_node_ok(d, &a->kfd))
		node_evidence(&a->kfd, ev, sizeof(ev));
	for (size_t i = 0; i < a->nrender; i++)
		if (!gw__doc_node_ok(d, &a->render[i]))
			node_evidence(&a->render[i], ev, sizeof(ev));
	if (!ev[0])
		return;
	gw__doc_cat(ev, sizeof(ev), _("; user in render: %s, in video: %s"), a->user_in_render ? _("yes") : _("no"),
		    a->user_in_video ? _("yes") : _("no"));
	gw__doc_add(d, "rocm-permission-denied", "driver", -1, NULL, ev,
		    "`sudo usermod -aG render,video $USER` and log in again; in Docker add `--device=/dev/kfd "
		    "--device=/dev/dri --group-add $(getent group render | cut -d: -f3)`.");
}

/* What to do for each way nvmlInit can fail that no finding above explains. */
static const char *nvml_init_fix(const char *code)
{
	if (!strcmp(code, "NO_PERMISSION"))
		return N_("This user may not open the NVIDIA device nodes: check `ls -l /dev/nvidia*` (mode 0666 or your "
		       "group), the cgroup device rules of your container, and that /dev/nvidiactl exists.");
	if (!strcmp(code, "INSUFFICIENT_POWER"))
		return N_("A GPU reports missing auxiliary power: power the node off and check the PCIe power cables to "
		       "every GPU, then look at `dmesg | grep -i nvrm`.");
	if (!strcmp(code, "IRQ_ISSUE"))
		return N_("The kernel could not deliver the GPU's interrupts: check `dmesg | grep -i nvrm`; try "
		       "`options nvidia NVreg_EnableMSI=1` (or 0) in /etc/modprobe.d and reboot.");
	if (!strcmp(code, "RESET_REQUIRED"))
		return N_("A GPU needs a reset: stop every process on it and run `sudo nvidia-smi -r -i <index>`, or "
		       "reboot the node.");
	if (!strcmp(code, "LIBRARY_NOT_FOUND") || !strcmp(code, "FUNCTION_NOT_FOUND"))
		return N_("NVML's own dependencies are incomplete: reinstall the user-space driver of the same release as "
		       "the kernel module (e.g. `sudo apt install --reinstall libnvidia-compute-<branch>`).");
	return N_("Look at `dmesg | grep -iE 'nvrm|xid'` and `nvidia-smi`; in a container that worked before, "
	       "recreate it (a `systemctl daemon-reload` on the host can revoke its device access); otherwise "
	       "reboot the node. `gpuwise explain nvml-init-failed` has more.");
}

/* NVML is installed and the GPUs are there, but nvmlInit refused, for a
 * reason none of the more specific findings (driver not loaded, mismatch,
 * device nodes) already names: still an error, never silence. */
static void rule_nvml_init_failed(gw__doctor *d)
{
	const gw_backend_status *st = backend(d, GW_BACKEND_ID_NVML);
	char ev[EV], msg[sizeof(st->message) * 2];
	const char *m;

	if (!st || st->state != GW_BACKEND_INIT_FAILED)
		return;
	if (gw__doc_fired(d, "nvidia-driver-not-loaded") || gw__doc_fired(d, "driver-library-mismatch") ||
	    gw__doc_fired(d, "device-node-missing") || gw__doc_fired(d, "device-permission-denied"))
		return;
	/* Every NVIDIA GPU reserved for a VM: no driver to load is expected. */
	if (gw__doc_fired(d, "gpu-bound-to-other-driver") && !strcmp(st->vendor_code_name, "DRIVER_NOT_LOADED"))
		return;
	m = gw_context_backend_message(d->ctx, st, msg, sizeof(msg));
	gw__doc_fmt(ev, sizeof(ev), _("nvmlInit returned %s (%d)%s%s"), st->vendor_code_name[0] ? st->vendor_code_name : _("an error"),
		    st->vendor_code, m[0] ? gw__doc_colon() : "", m);
	gw__doc_add(d, "nvml-init-failed", "driver", -1, NULL, ev, nvml_init_fix(st->vendor_code_name));
}

static const char *compute_driver(gw_vendor v)
{
	return gw__vendor_traits_of(v)->compute_driver;
}

/* An NVIDIA or AMD GPU held by a kernel driver that no framework reaches
 * it through: vfio-pci (kept for a virtual machine), pci-stub, radeon.
 * "No driver" and nouveau have their own findings. An error when no GPU
 * is left to use, else a warning (passing one GPU to a VM is common). */
static void rule_bound_to_other_driver(gw__doctor *d)
{
	char ev[EV] = "", title[256] = "", fix[FIX];
	const gw_probe_pci_gpu *first = NULL;
	int n = 0;
	bool vfio = false;

	for (size_t i = 0; i < d->p->ngpus; i++) {
		const gw_probe_pci_gpu *g = &d->p->gpus[i];
		const char *want = compute_driver(g->vendor);

		if (!want || !g->driver[0] || !strcmp(g->driver, want) || !strcmp(g->driver, "nouveau"))
			continue;
		if (!first)
			first = g;
		n++;
		vfio |= !strncmp(g->driver, "vfio", 4);
		gw__doc_cat(ev, sizeof(ev), _("%s%s %s (%04x:%04x%s%s) is bound to %s, not %s"), ev[0] ? gw__doc_sep() : "",
			    g->vendor == GW_VENDOR_NVIDIA ? _("NVIDIA GPU") : _("AMD GPU"), g->bus_id, g->vendor_id, g->device_id,
			    g->model ? " " : "", g->model ? g->model->name : "", g->driver, want);
	}
	if (!n)
		return;
	if (n == 1)
		gw__doc_fmt(title, sizeof(title), _("GPU %s is bound to %s, not to %s"), first->bus_id, first->driver,
			    compute_driver(first->vendor));
	else
		gw__doc_fmt(title, sizeof(title), _("%d GPUs are bound to another kernel driver than nvidia/amdgpu"), n);
	gw__doc_fmt(fix, sizeof(fix), _("%sTo give it back to this host: remove its vendor:device id from the `vfio-pci.ids=` "
		    "kernel parameter or /etc/modprobe.d, update the initramfs and reboot; or at run time `echo %s | sudo "
		    "tee /sys/bus/pci/devices/%s/driver/unbind` and then `echo %s | sudo tee /sys/bus/pci/drivers/%s/bind` "
		    "(`sudo driverctl unset-override %s` when driverctl set it)."),
		    vfio ? _("vfio-pci reserves a GPU for passthrough to a virtual machine: use it inside that VM. ") : "",
		    first->bus_id, first->bus_id, first->bus_id, compute_driver(first->vendor), first->bus_id);
	gw__doc_add(d, "gpu-bound-to-other-driver", "driver",
		    gw__doc_usable_gpus(d) ? GW_SEVERITY_WARNING : GW_SEVERITY_ERROR, title, ev, fix);
}

/* ---- ROCm on this operating system ------------------------------------------------ */

/* Is word one of the space-separated words of list? */
static bool word_listed(const char *list, const char *word)
{
	size_t wl = strlen(word);

	for (const char *p = list; wl && (p = strstr(p, word)); p += wl)
		if ((p == list || p[-1] == ' ') && (p[wl] == '\0' || p[wl] == ' '))
			return true;
	return false;
}

/* The os column this system is judged as: its ID when the table names it,
 * else "rhel" for a rebuild that says ID_LIKE="rhel ..." (Rocky, Alma,
 * which install AMD's RHEL packages). NULL: a distribution the matrix does
 * not name (Fedora, Arch, ... package ROCm themselves): not judged. */
static const char *rocm_os_family(const gw_probe_sysenv *s)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(gw_rows_rocm_os); i++)
		if (!strcmp(gw_rows_rocm_os[i].os, s->os_id))
			return gw_rows_rocm_os[i].os;
	return word_listed(s->os_id_like, "rhel") ? "rhel" : NULL;
}

/* The os column's name as AMD's matrix writes it. */
static const char *os_display(const char *family)
{
	static const char *const names[][2] = {
		{ "ubuntu", "Ubuntu" }, { "rhel", "RHEL" }, { "sles", "SLES" },
		{ "ol", "Oracle Linux" }, { "debian", "Debian" }, { "centos", "CentOS" },
	};

	for (size_t i = 0; i < GW_ARRAY_SIZE(names); i++)
		if (!strcmp(names[i][0], family))
			return names[i][1];
	return family;
}

/* Does a row's release list hold the installed release: exactly
 * (major.minor.patch), or, when no row does, by major.minor? */
static bool rocm_row_matches(const gw_row_rocm_os *row, const gw_ver *v, bool exact)
{
	char want[32];

	if (exact)
		gw__doc_fmt(want, sizeof(want), "%u.%u.%u", v->part[0], v->part[1], v->part[2]);
	else
		gw__doc_fmt(want, sizeof(want), "%u.%u.", v->part[0], v->part[1]);
	if (exact)
		return word_listed(row->rocm, want);
	for (const char *p = row->rocm; (p = strstr(p, want)); p++)
		if (p == row->rocm || p[-1] == ' ')
			return true;
	return false;
}

static void rule_rocm_os(gw__doctor *d)
{
	const gw_probe_sysenv *s = &d->p->sys;
	const gw_probe_amd *a = &d->p->amd;
	const gw_row_rocm_os *hit = NULL;
	const char *family;
	char ev[EV], fix[FIX], supported[256] = "";
	bool known = false;

	if (d->namd <= 0 || !GW_VERSION_KNOWN(a->rocm) || !s->os_id[0] || !s->os_version_id[0] ||
	    !(family = rocm_os_family(s)))
		return;
	for (int exact = 1; exact >= 0 && !known; exact--)
		for (size_t i = 0; i < GW_ARRAY_SIZE(gw_rows_rocm_os); i++) {
			const gw_row_rocm_os *row = &gw_rows_rocm_os[i];

			if (!rocm_row_matches(row, &a->rocm, exact))
				continue;
			known = true;   /* the release is in the table */
			if (strcmp(row->os, family))
				continue;
			if (word_listed(row->versions, s->os_version_id))
				return;   /* supported */
			if (!hit)
				hit = row;
			if (!word_listed(supported, row->versions))
				gw__doc_cat(supported, sizeof(supported), "%s%s", supported[0] ? " " : "", row->versions);
		}
	if (!known)
		return;   /* a release the table does not have: not judged */
	gw__doc_fmt(ev, sizeof(ev), _("ROCm %s (%s) on %s (os-release ID=%s VERSION_ID=%s%s)"), a->rocm.text,
		    a->rocm_path[0] ? a->rocm_path : "/opt/rocm", s->os_pretty[0] ? s->os_pretty : s->os_id, s->os_id,
		    s->os_version_id, strcmp(family, s->os_id) ? _(", judged as RHEL, which it rebuilds") : "");
	if (supported[0]) {
		char url[160];

		/* the row's source starts with the matrix page's address */
		gw__doc_fmt(url, sizeof(url), "%.*s", (int)strcspn(hit->source, " ;"), hit->source);
		gw__doc_cat(ev, sizeof(ev), _("; AMD supports ROCm %u.%u on %s %s only (%s)"), a->rocm.part[0],
			    a->rocm.part[1], os_display(family), supported, url);
	} else
		gw__doc_cat(ev, sizeof(ev), _("; AMD lists no %s release for ROCm %u.%u"), os_display(family),
			    a->rocm.part[0], a->rocm.part[1]);
	gw__doc_fmt(fix, sizeof(fix), _("Install a ROCm release that supports %s %s (see "
					"https://rocm.docs.amd.com/en/latest/compatibility/compatibility-matrix.html), or "
					"move to a supported release of the operating system; until then the amdgpu-dkms "
					"module and the ROCm packages may fail to build, install or load."),
		    os_display(family), s->os_version_id);
	gw__doc_add(d, "rocm-os-unsupported", "driver", -1, NULL, ev, fix);
}

void gw__doctor_rules_driver(gw__doctor *d)
{
	found_driver(d);
	rule_nvidia_driver_not_loaded(d);
	rule_nouveau(d);
	rule_bound_to_other_driver(d);
	rule_nvml_missing(d);
	rule_driver_library_mismatch(d);
	rule_device_nodes(d);
	rule_device_permission(d);
	rule_nvml_init_failed(d);
	found_rocm(d);
	rule_amdgpu_not_loaded(d);
	rule_rocm_permission(d);
	rule_rocm_os(d);
}

/* ---- live ------------------------------------------------------------------------- */

#define SLOWDOWN (GW_THROTTLE_SW_POWER_CAP | GW_THROTTLE_HW_SLOWDOWN | GW_THROTTLE_SW_THERMAL | \
		  GW_THROTTLE_HW_THERMAL | GW_THROTTLE_HW_POWER_BRAKE)

static void rule_clocks_throttled(gw__doctor *d)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ GW_THROTTLE_SW_POWER_CAP, N_("software power cap") },
		{ GW_THROTTLE_HW_SLOWDOWN, N_("hardware slowdown") },
		{ GW_THROTTLE_SW_THERMAL, N_("software thermal slowdown") },
		{ GW_THROTTLE_HW_THERMAL, N_("hardware thermal slowdown") },
		{ GW_THROTTLE_HW_POWER_BRAKE, N_("hardware power brake") },
	};

	for (int i = 0; i < d->ndev; i++) {
		const gw_device_sample *s = &d->sample[i];
		char ev[EV], l[160];

		if (!d->have_sample[i] || !GW_VALID(s->throttle_reasons) || !(s->throttle_reasons.v & SLOWDOWN))
			continue;
		dev_label(dev(d, i), l, sizeof(l));
		gw__doc_fmt(ev, sizeof(ev), _("%s: active reasons 0x%llx:"), l, (unsigned long long)s->throttle_reasons.v);
		for (size_t k = 0; k < GW_ARRAY_SIZE(names); k++)
			if (s->throttle_reasons.v & names[k].bit)
				gw__doc_cat(ev, sizeof(ev), _(" %s;"), gw_translate(names[k].name));
		if (GW_VALID(s->sm_clock) && GW_VALID(dev(d, i)->max_sm_clock))
			gw__doc_cat(ev, sizeof(ev), _(" SM clock %llu of %llu MHz;"), (unsigned long long)s->sm_clock.v,
				    (unsigned long long)dev(d, i)->max_sm_clock.v);
		if (GW_VALID(s->temperature))
			gw__doc_cat(ev, sizeof(ev), _(" %.0f °C;"), s->temperature.v);
		if (GW_VALID(s->power_draw) && GW_VALID(s->power_limit))
			gw__doc_cat(ev, sizeof(ev), _(" %.0f of %.0f W"), s->power_draw.v, s->power_limit.v);
		gw__doc_add(d, "clocks-throttled", "live", -1, NULL, ev,
			    (s->throttle_reasons.v & (GW_THROTTLE_SW_THERMAL | GW_THROTTLE_HW_THERMAL | GW_THROTTLE_HW_SLOWDOWN))
				    ? N_("Improve cooling (airflow, fan curve, dust, ambient temperature) and check the power "
				      "supply; watch `nvidia-smi -q -d PERFORMANCE,TEMPERATURE`.")
				    : N_("The GPU is at its power limit: expected under full load; if it is lower than the "
				      "board's default, raise it with `sudo nvidia-smi -pl <watts>`."));
	}
}

static void rule_memory_held(gw__doctor *d)
{
	for (int i = 0; i < d->ndev; i++) {
		const gw_device_info *di = dev(d, i);
		gw_process *pl = NULL;
		size_t np = 0;
		uint64_t others = 0;
		char ev[EV], l[160], a[32], b[32];
		int nothers = 0;

		if (!d->have_sample[i] || !GW_VALID(di->memory_total) || di->memory_total.v == 0)
			continue;
		if (gw_device_processes(d->ctx, i, &pl, &np) < 0)
			continue;
		dev_label(di, l, sizeof(l));
		/* TRANSLATORS: a GPU's label, then the processes holding its memory */
		gw__doc_fmt(ev, sizeof(ev), _("%s:"), l);
		for (size_t k = 0; k < np; k++) {
			if (pl[k].pid_resolved && pl[k].uid == d->uid)
				continue;
			if (!GW_VALID(pl[k].used_memory))
				continue;
			others += pl[k].used_memory.v;
			nothers++;
			gw__doc_cat(ev, sizeof(ev), _(" pid %u (%s, %s) %.1f GiB;"), pl[k].pid,
				    pl[k].user[0] ? pl[k].user : _("user unknown"), pl[k].command[0] ? pl[k].command : "?",
				    (double)pl[k].used_memory.v / (1024.0 * 1024 * 1024));
		}
		gw_processes_free(pl);
		if (!nothers || others * 2 <= di->memory_total.v)
			continue;
		gw__doc_fmt(a, sizeof(a), "%.1f GiB", (double)others / (1024.0 * 1024 * 1024));
		gw__doc_fmt(b, sizeof(b), "%.1f GiB", (double)di->memory_total.v / (1024.0 * 1024 * 1024));
		gw__doc_cat(ev, sizeof(ev), _(" %s of %s held by other users' processes"), a, b);
		gw__doc_add(d, "gpu-memory-held-by-other-processes", "live", -1, NULL, ev,
			    "Pick a free GPU with `CUDA_VISIBLE_DEVICES=<index>` (see `gpuwise list`), or ask the "
			    "owners (or the scheduler) to free this one.");
	}
}

/* ---- memory in use, no process listed --------------------------------------------- */

/* A CUDA context with nothing allocated costs a few hundred MiB; used
 * memory above this with no process listed is held by someone NVML does
 * not show here. */
#define UNLISTED_MIN (1024ull * 1024 * 1024)

/* Does /proc/<pid>/fd hold /dev/nvidia<minor> (any GPU node when minor < 0)?
 * -1 when the folder cannot be read (another user's process). */
static int holds_gpu(const char *root, const char *pid, long minor)
{
	char path[64], **fds;
	size_t n;
	int found = 0, rc;

	gw__doc_fmt(path, sizeof(path), "/proc/%s/fd", pid);
	if ((rc = gw__dir_list(root, path, &fds, &n)) < 0) {
		gw_error_clear();
		return rc == GW_EPERM ? -1 : 0;   /* ENOENT: it ended meanwhile */
	}
	for (size_t k = 0; k < n && !found; k++) {
		char fdpath[96], target[128];
		const char *num;

		gw__doc_fmt(fdpath, sizeof(fdpath), "/proc/%s/fd/%s", pid, fds[k]);
		if (gw__readlink(root, fdpath, target, sizeof(target)) < 0 || strncmp(target, "/dev/nvidia", 11))
			continue;
		num = target + 11;
		if (!*num || strspn(num, "0123456789") != strlen(num))
			continue;   /* nvidiactl, nvidia-uvm: every CUDA process has those */
		found = minor < 0 || strtol(num, NULL, 10) == minor;
	}
	gw__dir_list_free(fds, n);
	gw_error_clear();
	return found;
}

/* The processes here with the GPU's node open, as evidence; how many were
 * found, and how many could not be looked at. */
static int find_holders(const gw__doctor *d, long minor, const char *node, char *ev, size_t n, char *pids, size_t pn,
			int *unreadable)
{
	const char *root = d->p->root[0] ? d->p->root : "/";
	char **names;
	size_t np;
	int found = 0;

	*unreadable = 0;
	if (gw__dir_list(root, "/proc", &names, &np) < 0) {
		gw_error_clear();
		return 0;
	}
	for (size_t i = 0; i < np; i++) {
		gw_process p;
		int h;

		if (strspn(names[i], "0123456789") != strlen(names[i]) ||
		    (!d->fake_root && atoi(names[i]) == gw__getpid()))
			continue;
		if ((h = holds_gpu(root, names[i], minor)) < 0) {
			++*unreadable;
			continue;
		}
		if (!h)
			continue;
		memset(&p, 0, sizeof(p));
		p.pid = (uint32_t)strtoul(names[i], NULL, 10);
		gw__process_resolve(root, &p);
		/* TRANSLATORS: a process that has the GPU's device node (/dev/nvidia0) open */
		gw__doc_cat(ev, n, _("%spid %u (%s, %s) has %s open"), gw__doc_sep(), p.pid,
			    p.user[0] ? p.user : _("user unknown"), p.command[0] ? p.command : "?", node);
		gw__doc_cat(pids, pn, "%s%u", pids[0] ? " " : "", p.pid);
		found++;
	}
	gw__dir_list_free(names, np);
	return found;
}

static void rule_memory_unlisted(gw__doctor *d)
{
	for (int i = 0; i < d->ndev; i++) {
		const gw_device_info *di = dev(d, i);
		const gw_device_sample *s = &d->sample[i];
		gw_process *pl = NULL;
		size_t np = 0;
		uint64_t used;
		long minor;
		char ev[EV], fix[FIX], l[160], pids[256] = "", node[32];
		int found, unreadable;

		if (!d->have_sample[i] || di->vendor != GW_VENDOR_NVIDIA || !GW_VALID(s->memory_used) ||
		    !GW_VALID(di->memory_total))
			continue;
		used = s->memory_used.v;
		/* Drivers without the v2 memory call count the reserved memory as used. */
		if (GW_VALID(di->memory_used_includes_reserved) && di->memory_used_includes_reserved.v &&
		    GW_VALID(s->memory_reserved) && used >= s->memory_reserved.v)
			used -= s->memory_reserved.v;
		if (used < UNLISTED_MIN)
			continue;
		if (gw_device_processes(d->ctx, i, &pl, &np) < 0 || np > 0) {
			gw_processes_free(pl);
			continue;
		}
		gw_processes_free(pl);
		minor = GW_VALID(di->minor_number) ? (long)di->minor_number.v : -1;
		if (minor >= 0)
			gw__doc_fmt(node, sizeof(node), "/dev/nvidia%ld", minor);
		else
			gw__doc_fmt(node, sizeof(node), "/dev/nvidia*");
		dev_label(di, l, sizeof(l));
		gw__doc_fmt(ev, sizeof(ev), _("%s: %.1f of %.1f GiB in use and NVML lists no compute or graphics process"), l,
			    (double)used / (1024.0 * 1024 * 1024), (double)di->memory_total.v / (1024.0 * 1024 * 1024));
		found = find_holders(d, minor, node, ev, sizeof(ev), pids, sizeof(pids), &unreadable);
		if (unreadable)
			gw__doc_cat(ev, sizeof(ev), _("%s%d processes' descriptors could not be read (another user's; run as root "
						      "to see them)"), gw__doc_sep(), unreadable);
		if (found)
			gw__doc_fmt(fix, sizeof(fix), _("End the processes that hold the GPU: `kill %s` (then `kill -9 %s` if they "
							"do not exit); a stopped notebook kernel or a crashed training job's "
							"workers keep their memory until they end."), pids, pids);
		else
			gw__doc_fmt(fix, sizeof(fix), _("No process here has %s open: the memory is probably held by another "
							"container or VM on the same host (NVML lists only the processes of this "
							"pid namespace). Run `nvidia-smi` or `sudo fuser -v /dev/nvidia*` on the "
							"host and end the holder there, or use another GPU."), node);
		gw__doc_add(d, "gpu-memory-used-no-process", "live", -1, NULL, ev, fix);
	}
}

static void rule_exclusive_busy(gw__doctor *d)
{
	for (int i = 0; i < d->ndev; i++) {
		const gw_device_sample *s = &d->sample[i];
		gw_process *pl = NULL;
		size_t np = 0;
		char ev[EV], l[160];

		if (!d->have_sample[i] || !GW_VALID(s->compute_mode) || s->compute_mode.v != 3)
			continue;
		if (gw_device_processes(d->ctx, i, &pl, &np) < 0 || np == 0) {
			gw_processes_free(pl);
			continue;
		}
		dev_label(dev(d, i), l, sizeof(l));
		gw__doc_fmt(ev, sizeof(ev), _("%s: compute mode exclusive-process, held by pid %u (%s)"), l, pl[0].pid,
			 pl[0].command[0] ? pl[0].command : _("command unknown"));
		gw_processes_free(pl);
		gw__doc_add(d, "exclusive-process-busy", "live", -1, NULL, ev,
			    "Use another GPU (`CUDA_VISIBLE_DEVICES=<free index>`), wait for the holder to finish, or "
			    "(admin) `sudo nvidia-smi -i N -c DEFAULT`.");
	}
}

void gw__doctor_rules_live(gw__doctor *d)
{
	if (!d->ctx || !d->have_sample)
		return;
	rule_clocks_throttled(d);
	rule_memory_held(d);
	rule_memory_unlisted(d);
	rule_exclusive_busy(d);
}

/* ---- environment ------------------------------------------------------------------- */

static void rule_container_without_gpu(gw__doctor *d)
{
	const gw_probe_sysenv *s = &d->p->sys;
	char ev[EV];

	if (!s->container || s->gpu_runtime_hint || d->p->amd.kfd.exists || s->wsl)
		return;
	for (int i = 0; i < d->ndev; i++)
		if (dev(d, i)->health == GW_HEALTH_OK)
			return;
	gw__doc_fmt(ev, sizeof(ev), _("inside a %s container; no /dev/nvidia*, /proc/driver/nvidia or /dev/kfd"), s->container_kind);
	if (s->nvidia_visible_set)
		gw__doc_cat(ev, sizeof(ev), "%sNVIDIA_VISIBLE_DEVICES=%s", gw__doc_sep(), s->nvidia_visible_devices);
	gw__doc_add(d, "container-without-gpu", "environment", -1, NULL, ev,
		    "Start the container with the GPU runtime: `docker run --gpus all ...` (NVIDIA Container "
		    "Toolkit installed on the host), Kubernetes `resources.limits: nvidia.com/gpu: 1`, or for AMD "
		    "`--device=/dev/kfd --device=/dev/dri`. If this machine has no GPU at all, ignore this.");
}

void gw__doctor_rules_environment(gw__doctor *d)
{
	rule_container_without_gpu(d);
}

/* ---- final: what the other findings leave unexplained ------------------------ */

/* GPUs are there but no framework can use any of them, and no error
 * finding says why (an Intel GPU only; a GPU that its library refuses
 * without a more specific finding): say it, so that "not ready" is never
 * an exit status of 0. */
static void rule_no_usable_gpu(gw__doctor *d)
{
	char ev[EV] = "";
	bool intel_only = d->p->ngpus > 0;

	if (gw__doc_usable_gpus(d) || gw_doctor_count(d->rep, GW_SEVERITY_ERROR))
		return;
	if (!d->p->ngpus && d->ndev <= 0 && !d->p->amd.nagents)
		return;   /* nothing at all: no-gpu */
	for (size_t i = 0; i < d->p->ngpus; i++) {
		const gw_probe_pci_gpu *g = &d->p->gpus[i];

		intel_only &= g->vendor == GW_VENDOR_INTEL;
		gw__doc_cat(ev, sizeof(ev), _("%s%s %s %04x:%04x%s%s, driver %s"), ev[0] ? gw__doc_sep() : "",
			    g->vendor == GW_VENDOR_NVIDIA ? "NVIDIA" : g->vendor == GW_VENDOR_AMD ? "AMD" :
			    g->vendor == GW_VENDOR_INTEL ? "Intel" : "GPU", g->bus_id, g->vendor_id, g->device_id,
			    g->model ? " " : "", g->model ? g->model->name : "", g->driver[0] ? g->driver : _("none"));
	}
	for (int i = 0; i < d->ndev; i++) {
		const gw_device_info *di = dev(d, i);
		char why[1024];

		intel_only &= di->vendor == GW_VENDOR_INTEL;
		if (di->health != GW_HEALTH_OK)
			gw__doc_cat(ev, sizeof(ev), _("%sGPU %d (%s): %s%s%s"), ev[0] ? gw__doc_sep() : "", di->index,
				    GW_VALID(di->name) ? di->name.s : _("unnamed"), gw_health_name(di->health),
				    di->health_reason[0] ? gw__doc_comma() : "", gw_device_health_reason(d->ctx, i, why, sizeof(why)));
	}
	gw__doc_cat(ev, sizeof(ev), _("%sno NVIDIA or AMD GPU that its library reads"), ev[0] ? gw__doc_sep() : "");
	gw__doc_add(d, "no-usable-gpu", "hardware", -1, NULL, ev,
		    intel_only ? N_("CUDA and ROCm frameworks need an NVIDIA or AMD GPU; an Intel GPU needs a build for "
				 "it (PyTorch: `pip install torch torchvision torchaudio --index-url "
				 "https://download.pytorch.org/whl/xpu`, then `torch.xpu.is_available()`), which gpuwise does "
				 "not check. Otherwise run on a machine (or VM type) with an NVIDIA or AMD GPU.")
			       : N_("Run `gpuwise list` to see why each GPU cannot be read, and `gpuwise explain "
				 "no-usable-gpu`."));
}

void gw__doctor_rules_final(gw__doctor *d)
{
	rule_no_usable_gpu(d);
}
