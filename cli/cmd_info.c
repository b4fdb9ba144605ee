/* gpuwise info — everything gpuwise knows about each GPU, in the spirit of
 * `nvidia-smi -q`, or the ◆ JSON contract of DESIGN.md with --json.
 * Exit 0 when at least one reported GPU could be read, 1 when none could
 * (or the selector matches none), 2 on a usage error. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "output.h"

#define ALL_MIG ((1u << GW_MAX_MIG) - 1)

/* Everything read about one device for one report. */
struct report {
	const gw_device_info *d;
	gw_device_sample s;
	int sample_rc;        /* 0, or the gw_error of gw_device_sample_read */
	char sample_error[1100];  /* gw_error_last() whole */
	gw_process *procs;
	size_t nprocs;
	int procs_rc;
	char procs_error[1100];
	char cuda_index[700]; /* the index, or why CUDA has none for this GPU */
};

static void report_read(gw_context *ctx, int i, struct report *r)
{
	memset(r, 0, sizeof(*r));
	r->d = gw_device_get(ctx, i);
	cuda_index_text(ctx, r->d, r->cuda_index, sizeof(r->cuda_index));
	/* A lost GPU has no dynamic data; every field stays UNREAD (N/A). */
	if (r->d->health == GW_HEALTH_LOST) {
		r->sample_rc = GW_ELOST;
		return;
	}
	/* A GPU no driver serves has no process list either: unknown, not empty. */
	if (!device_readable(r->d)) {
		r->sample_rc = gw_device_sample_read(ctx, i, &r->s) < 0 ? GW_ELOST : 0;
		r->procs_rc = GW_ENOTSUP;
		snprintf(r->procs_error, sizeof(r->procs_error), "N/A");
		return;
	}
	if ((r->sample_rc = gw_device_sample_read(ctx, i, &r->s)) < 0) {
		snprintf(r->sample_error, sizeof(r->sample_error), "%s", gw_error_last());
		memset(&r->s, 0, sizeof(r->s));
	}
	if ((r->procs_rc = gw_device_processes(ctx, i, &r->procs, &r->nprocs)) < 0) {
		snprintf(r->procs_error, sizeof(r->procs_error), "%s", gw_error_last());
		r->procs = NULL;
		r->nprocs = 0;
	}
}

/* Keep only the MIG devices in mask (MIG index bits) and the processes in
 * their GPU instances: the report of a selected MIG device. */
static void report_only_mig(struct report *r, unsigned mask)
{
	gw_device_sample *s = &r->s;
	int w = 0;
	size_t pw = 0;

	if (mask == ALL_MIG)
		return;
	for (int m = 0; m < s->mig_count && m < GW_MAX_MIG; m++)
		if (mask & (1u << m))
			s->mig[w++] = s->mig[m];
	s->mig_count = w;
	for (size_t i = 0; i < r->nprocs; i++) {
		const gw_process *p = &r->procs[i];
		bool keep = false;

		for (int m = 0; m < w; m++)
			keep |= GW_VALID(p->gpu_instance_id) && GW_VALID(s->mig[m].gpu_instance_id) &&
				p->gpu_instance_id.v == s->mig[m].gpu_instance_id.v;
		if (keep)
			r->procs[pw++] = *p;
	}
	r->nprocs = pw;
}

static void report_release(struct report *r)
{
	gw_processes_free(r->procs);
	r->procs = NULL;
}

static const char *process_type_name(gw_process_type t)
{
	switch (t) {
	case GW_PROCESS_COMPUTE: return "compute";
	case GW_PROCESS_GRAPHICS: return "graphics";
	case GW_PROCESS_BOTH: return "compute+graphics";
	default: return "unknown";
	}
}

/* ---- the human report ------------------------------------------------- */

#define B(buf) buf, sizeof(buf)

static void human_driver(const gw_context *ctx, int ndev)
{
	const gw_driver_info *drv = gw_context_driver(ctx);
	char a[128];

	report_line(0, "Driver Version", "%s", show_str(B(a), &drv->driver_version));
	if (GW_VALID(drv->cuda_driver_version))
		report_line(0, "CUDA Driver Version", "%s", cuda_version_text(B(a), drv->cuda_driver_version.v));
	else
		report_line(0, "CUDA Driver Version", "%s", show_u64(B(a), &drv->cuda_driver_version, NULL));
	report_line(0, "NVML Version", "%s", show_str(B(a), &drv->nvml_version));
	report_line(0, "Kernel Module Version", "%s", show_str(B(a), &drv->kernel_module_version));
	if (GW_VALID(drv->amdgpu_version))
		report_line(0, "AMDGPU Version", "%s", drv->amdgpu_version.s);
	report_line(0, "Attached GPUs", "%d", ndev);
}

/* Backends that failed say so, so a missing vendor is visible here too. */
static void human_backends(const gw_context *ctx)
{
	const gw_backend_status *st;
	int nb = 0;

	st = gw_context_backends(ctx, &nb);
	report_section(0, "Backends");
	for (int i = 0; i < nb; i++) {
		if (st[i].state == GW_BACKEND_OK || st[i].state == GW_BACKEND_NOT_TRIED || !st[i].message[0])
			report_line(1, st[i].name, "%s", gw_backend_state_name(st[i].state));
		else
			report_line(1, st[i].name, "%s: %s", gw_backend_state_name(st[i].state), st[i].message);
	}
}

static void human_identity(const gw_device_info *d, const char *cuda_index)
{
	char a[128];

	report_line(1, "Index", "%d", d->index);
	report_line(1, "CUDA Index", "%s", cuda_index);
	report_line(1, "Vendor", "%s", gw_vendor_name(d->vendor));
	report_line(1, "Product Name", "%s", show_str(B(a), &d->name));
	report_line(1, "GPU UUID", "%s", show_str(B(a), &d->uuid));
	report_line(1, "Serial Number", "%s", show_str(B(a), &d->serial));
	report_line(1, "Board Part Number", "%s", show_str(B(a), &d->board_part_number));
	report_line(1, "VBIOS Version", "%s", show_str(B(a), &d->vbios_version));
	report_line(1, "Minor Number", "%s", show_u64(B(a), &d->minor_number, NULL));
	report_line(1, "Backend", "%s", d->backend && *d->backend ? d->backend : "none");
	report_section(1, "PCI");
	report_line(2, "Bus Id", "%s", show_str(B(a), &d->pci_bus_id));
	if (GW_VALID(d->pci_vendor_id) && GW_VALID(d->pci_device_id))
		report_line(2, "Device Id", "0x%04" PRIX64 "%04" PRIX64, d->pci_device_id.v, d->pci_vendor_id.v);
	else
		report_line(2, "Device Id", "%s", show_u64(B(a), &d->pci_device_id, NULL));
	if (GW_VALID(d->pci_subsystem_id))
		report_line(2, "Sub System Id", "0x%08" PRIX64, d->pci_subsystem_id.v);
	else
		report_line(2, "Sub System Id", "%s", show_u64(B(a), &d->pci_subsystem_id, NULL));
	report_line(2, "Kernel Driver", "%s", GW_VALID(d->kernel_driver) && !d->kernel_driver.s[0]
			? "none bound" : show_str(B(a), &d->kernel_driver));
}

static void human_compute(const gw_device_info *d)
{
	char a[128];

	report_line(1, "Architecture", "%s", show_str(B(a), &d->architecture));
	if (d->vendor == GW_VENDOR_AMD || GW_VALID(d->gfx_target)) {
		report_line(1, "GFX Target", "%s", show_str(B(a), &d->gfx_target));
		report_line(1, "Compute Units", "%s", show_u64(B(a), &d->multiprocessor_count, NULL));
	} else {
		report_line(1, "Compute Capability", "%s",
			    compute_capability_text(B(a), d) ? a : show_u64(B(a), &d->cc_major, NULL));
		report_line(1, "Multiprocessors (SMs)", "%s", show_u64(B(a), &d->multiprocessor_count, NULL));
	}
	report_line(1, "CUDA Cores", "%s", show_u64(B(a), &d->cuda_cores, NULL));
}

static void human_memory(const struct report *r)
{
	char a[64];

	report_section(1, "Memory Usage");
	report_line(2, "Total", "%s", show_bytes(B(a), &r->d->memory_total));
	report_line(2, "Reserved", "%s", show_bytes(B(a), &r->s.memory_reserved));
	report_line(2, "Used", "%s", show_bytes(B(a), &r->s.memory_used));
	report_line(2, "Free", "%s", show_bytes(B(a), &r->s.memory_free));
	report_section(1, "BAR1 Memory Usage");
	report_line(2, "Total", "%s", show_bytes(B(a), &r->d->bar1_total));
	report_line(2, "Used", "%s", show_bytes(B(a), &r->s.bar1_used));
}

static void human_load(const struct report *r)
{
	const gw_device_sample *s = &r->s;
	char a[64], b[64];

	report_section(1, "Utilization");
	report_line(2, "GPU", "%s", show_u64(B(a), &s->gpu_util, "%"));
	report_line(2, "Memory", "%s", show_u64(B(a), &s->mem_util, "%"));
	report_line(2, "Encoder", "%s", show_u64(B(a), &s->encoder_util, "%"));
	report_line(2, "Decoder", "%s", show_u64(B(a), &s->decoder_util, "%"));
	report_section(1, "Temperature");
	report_line(2, "GPU Current Temp", "%s", show_f64(B(a), &s->temperature, 0, "C"));
	report_line(2, "Memory Current Temp", "%s", show_f64(B(a), &s->temperature_memory, 0, "C"));
	report_line(2, "GPU Slowdown Temp", "%s", show_f64(B(a), &s->temperature_slowdown, 0, "C"));
	report_line(2, "GPU Shutdown Temp", "%s", show_f64(B(a), &s->temperature_shutdown, 0, "C"));
	report_line(1, "Fan Speed", "%s", show_u64(B(a), &s->fan_percent, "%"));
	report_section(1, "Power");
	report_line(2, "Power Draw", "%s", show_f64(B(a), &s->power_draw, 2, "W"));
	report_line(2, "Enforced Power Limit", "%s", show_f64(B(a), &s->power_limit, 2, "W"));
	report_line(2, "Power Management Limit", "%s", show_f64(B(a), &s->power_management_limit, 2, "W"));
	report_line(2, "Total Energy", "%s", show_f64(B(a), &s->energy, 3, "J"));
	report_section(1, "Clocks (current / max)");
	report_line(2, "Graphics", "%s / %s", show_u64(B(a), &s->graphics_clock, "MHz"),
		    show_u64(B(b), &r->d->max_graphics_clock, "MHz"));
	report_line(2, "SM", "%s / %s", show_u64(B(a), &s->sm_clock, "MHz"), show_u64(B(b), &r->d->max_sm_clock, "MHz"));
	report_line(2, "Memory", "%s / %s", show_u64(B(a), &s->mem_clock, "MHz"),
		    show_u64(B(b), &r->d->max_mem_clock, "MHz"));
	report_line(2, "Video", "%s", show_u64(B(a), &s->video_clock, "MHz"));
	if (GW_VALID(s->pstate))
		report_line(1, "Performance State", "P%" PRIu64, s->pstate.v);
	else
		report_line(1, "Performance State", "%s", show_u64(B(a), &s->pstate, NULL));
}

/* A PCIe link width as "x16". */
static const char *show_width(char *buf, size_t n, const gw_u64 *f)
{
	if (!GW_VALID(*f))
		return show_u64(buf, n, f, NULL);
	snprintf(buf, n, "x%" PRIu64, f->v);
	return buf;
}

static void human_pcie(const struct report *r)
{
	const gw_device_sample *s = &r->s;
	char a[64], b[64];

	report_section(1, "PCIe Link");
	report_line(2, "Generation (current / max)", "%s / %s", show_u64(B(a), &s->pcie_gen, NULL),
		    show_u64(B(b), &r->d->pcie_max_gen, NULL));
	report_line(2, "GPU Max Generation", "%s", show_u64(B(a), &r->d->pcie_gpu_max_gen, NULL));
	report_line(2, "Width (current / max)", "%s / %s", show_width(B(a), &s->pcie_width),
		    show_width(B(b), &r->d->pcie_max_width));
	if (GW_VALID(s->pcie_tx))
		report_line(2, "TX Throughput", "%s/s", fmt_bytes(B(a), s->pcie_tx.v));
	else
		report_line(2, "TX Throughput", "%s", show_u64(B(a), &s->pcie_tx, NULL));
	if (GW_VALID(s->pcie_rx))
		report_line(2, "RX Throughput", "%s/s", fmt_bytes(B(a), s->pcie_rx.v));
	else
		report_line(2, "RX Throughput", "%s", show_u64(B(a), &s->pcie_rx, NULL));
	report_line(2, "Replays", "%s", show_u64(B(a), &s->pcie_replay_counter, NULL));
}

static void human_modes(const struct report *r)
{
	const gw_device_sample *s = &r->s;
	char a[512]; /* every title and the unknown bits fit */

	report_line(1, "Persistence Mode", "%s", show_flag(B(a), &s->persistence_mode, "Enabled", "Disabled"));
	if (GW_VALID(s->compute_mode))
		report_line(1, "Compute Mode", "%s", compute_mode_name(s->compute_mode.v));
	else
		report_line(1, "Compute Mode", "%s", show_u64(B(a), &s->compute_mode, NULL));
	report_line(1, "Display Mode", "%s", show_flag(B(a), &s->display_mode, "Enabled", "Disabled"));
	if (GW_VALID(s->throttle_reasons)) {
		uint64_t unknown = 0;
		size_t len = 0;

		a[0] = '\0';
		/* Known reasons by title; bits without one together, in hex. */
		for (int bit = 0; bit < 64; bit++) {
			uint64_t m = (uint64_t)1 << bit;
			const char *t = throttle_reason_title(m);

			if (!(s->throttle_reasons.v & m))
				continue;
			if (!t) {
				unknown |= m;
				continue;
			}
			len += (size_t)snprintf(a + len, len < sizeof(a) ? sizeof(a) - len : 0, "%s%s", len ? ", " : "", t);
		}
		if (unknown)
			len += (size_t)snprintf(a + len, len < sizeof(a) ? sizeof(a) - len : 0, "%sUnknown (0x%" PRIx64 ")",
						len ? ", " : "", unknown);
		if (len >= sizeof(a))
			mark_cut(a, sizeof(a));
		report_line(1, "Clocks Event Reasons", "%s", a[0] ? a : "None");
	} else {
		report_line(1, "Clocks Event Reasons", "%s", show_u64(B(a), &s->throttle_reasons, NULL));
	}
}

static void human_ecc(const struct report *r)
{
	const gw_device_sample *s = &r->s;
	char a[64], b[64];

	report_section(1, "ECC");
	report_line(2, "Mode (current / pending)", "%s / %s", show_flag(B(a), &s->ecc_current, "Enabled", "Disabled"),
		    show_flag(B(b), &s->ecc_pending, "Enabled", "Disabled"));
	report_line(2, "Volatile Correctable", "%s", show_u64(B(a), &s->ecc_corrected_volatile, NULL));
	report_line(2, "Volatile Uncorrectable", "%s", show_u64(B(a), &s->ecc_uncorrected_volatile, NULL));
	report_line(2, "Aggregate Correctable", "%s", show_u64(B(a), &s->ecc_corrected_aggregate, NULL));
	report_line(2, "Aggregate Uncorrectable", "%s", show_u64(B(a), &s->ecc_uncorrected_aggregate, NULL));
	report_section(1, "Remapped Rows");
	report_line(2, "Correctable Error", "%s", show_u64(B(a), &s->remapped_correctable, NULL));
	report_line(2, "Uncorrectable Error", "%s", show_u64(B(a), &s->remapped_uncorrectable, NULL));
	report_line(2, "Pending", "%s", show_flag(B(a), &s->remapped_pending, "Yes", "No"));
	report_line(2, "Remapping Failure Occurred", "%s", show_flag(B(a), &s->remapped_failure, "Yes", "No"));
}

static void human_mig(const struct report *r)
{
	const gw_device_sample *s = &r->s;
	char a[64], b[64];

	report_section(1, "MIG");
	report_line(2, "Mode (current / pending)", "%s / %s", show_flag(B(a), &s->mig_current, "Enabled", "Disabled"),
		    show_flag(B(b), &s->mig_pending, "Enabled", "Disabled"));
	report_line(2, "Max Devices", "%s", show_u64(B(a), &s->mig_max_devices, NULL));
	for (int i = 0; i < s->mig_count && i < GW_MAX_MIG; i++) {
		const gw_mig_device *m = &s->mig[i];
		char title[32];

		snprintf(title, sizeof(title), "MIG Device %d", i);
		report_section(2, title);
		report_line(3, "Name", "%s", show_str(B(a), &m->name));
		report_line(3, "UUID", "%s", show_str(B(a), &m->uuid));
		report_line(3, "GPU Instance Id", "%s", show_u64(B(a), &m->gpu_instance_id, NULL));
		report_line(3, "Compute Instance Id", "%s", show_u64(B(a), &m->compute_instance_id, NULL));
		report_line(3, "Multiprocessors", "%s", show_u64(B(a), &m->multiprocessor_count, NULL));
		report_line(3, "Memory Total", "%s", show_bytes(B(a), &m->memory_total));
		report_line(3, "Memory Used", "%s", show_bytes(B(a), &m->memory_used));
	}
}

static void human_processes(const struct report *r)
{
	char a[64];

	if (!device_readable(r->d)) {
		report_line(1, "Processes", "N/A");
		return;
	}
	if (r->procs_rc == GW_ENOTSUP) {
		report_line(1, "Processes", "N/A (%s)", r->procs_error);
		return;
	}
	if (r->procs_rc < 0) {
		report_line(1, "Processes", "error: %s", r->procs_error);
		return;
	}
	if (r->nprocs == 0) {
		report_line(1, "Processes", "None");
		return;
	}
	report_section(1, "Processes");
	for (size_t i = 0; i < r->nprocs; i++) {
		const gw_process *p = &r->procs[i];

		report_line(2, "Process ID", "%" PRIu32, p->pid);
		report_line(3, "Type", "%s", process_type_name(p->type));
		if (p->pid_resolved) {
			report_line(3, "User", "%s", p->user[0] ? p->user : "N/A");
			report_line(3, "Command", "%s", p->command[0] ? p->command : "N/A");
		} else {
			report_line(3, "User", "not in this pid namespace");
			report_line(3, "Command", "not in this pid namespace");
		}
		report_line(3, "Used GPU Memory", "%s", show_bytes(B(a), &p->used_memory));
		if (GW_VALID(p->gpu_instance_id))
			report_line(3, "GPU Instance Id", "%" PRIu64, p->gpu_instance_id.v);
		if (GW_VALID(p->compute_instance_id))
			report_line(3, "Compute Instance Id", "%" PRIu64, p->compute_instance_id.v);
	}
}

static void human_device(const struct report *r, bool color)
{
	const gw_device_info *d = r->d;
	char a[128];

	printf("\nGPU %d: %s (%s)\n", d->index, show_str(B(a), &d->name),
	       GW_VALID(d->pci_bus_id) ? d->pci_bus_id.s : "no PCI bus id");
	report_line(1, "Health", "%s%s%s%s%s", color_health(color, d->health), gw_health_name(d->health),
		    d->health != GW_HEALTH_OK && d->health_reason[0] ? ": " : "",
		    d->health != GW_HEALTH_OK ? d->health_reason : "", color_reset(color));
	if (r->sample_rc < 0 && r->sample_rc != GW_ELOST)
		report_line(1, "Sample Error", "%s", r->sample_error);
	human_identity(d, r->cuda_index);
	human_compute(d);
	human_memory(r);
	human_load(r);
	human_pcie(r);
	human_modes(r);
	human_ecc(r);
	human_mig(r);
	human_processes(r);
}

/* ---- JSON --------------------------------------------------------------- */

/* A 0/1 field as a JSON boolean; null unless VALID. */
static void json_flag(gw_json *j, const char *key, const gw_u64 *f)
{
	gw_json_key(j, key);
	if (GW_VALID(*f))
		gw_json_bool(j, f->v != 0);
	else
		gw_json_null(j);
}

static void json_identity(gw_json *j, const gw_device_info *d)
{
	char a[32];

	gw_json_key(j, "index");
	gw_json_int(j, d->index);
	json_index_field(j, "cuda_index", d->cuda_index);
	json_index_field(j, "nvml_index", d->nvml_index);
	gw_json_key(j, "vendor");
	gw_json_string(j, gw_vendor_name(d->vendor));
	gw_json_key(j, "backend");
	gw_json_string(j, d->backend && *d->backend ? d->backend : NULL);
	gw_json_str_field(j, "name", &d->name);
	gw_json_str_field(j, "uuid", &d->uuid);
	gw_json_str_field(j, "serial", &d->serial);
	gw_json_str_field(j, "board_part_number", &d->board_part_number);
	gw_json_str_field(j, "vbios_version", &d->vbios_version);
	gw_json_str_field(j, "pci_bus_id", &d->pci_bus_id);
	gw_json_key(j, "pci_device_id");
	if (GW_VALID(d->pci_vendor_id) && GW_VALID(d->pci_device_id)) {
		snprintf(a, sizeof(a), "0x%04" PRIx64 "%04" PRIx64, d->pci_device_id.v, d->pci_vendor_id.v);
		gw_json_string(j, a);
	} else {
		gw_json_null(j);
	}
	gw_json_key(j, "pci_subsystem_id");
	if (GW_VALID(d->pci_subsystem_id)) {
		snprintf(a, sizeof(a), "0x%08" PRIx64, d->pci_subsystem_id.v);
		gw_json_string(j, a);
	} else {
		gw_json_null(j);
	}
	gw_json_str_field(j, "kernel_driver", &d->kernel_driver);
	gw_json_u64_field(j, "minor_number", &d->minor_number);
	gw_json_str_field(j, "architecture", &d->architecture);
	gw_json_key(j, "compute_capability");
	gw_json_string(j, compute_capability_text(a, sizeof(a), d));
	gw_json_str_field(j, "gfx_target", &d->gfx_target);
	gw_json_u64_field(j, "multiprocessor_count", &d->multiprocessor_count);
	gw_json_u64_field(j, "cuda_cores", &d->cuda_cores);
}

static void json_memory(gw_json *j, const struct report *r)
{
	gw_json_key(j, "memory");
	gw_json_object_begin(j);
	gw_json_u64_field(j, "total_bytes", &r->d->memory_total);
	gw_json_u64_field(j, "used_bytes", &r->s.memory_used);
	gw_json_u64_field(j, "free_bytes", &r->s.memory_free);
	gw_json_u64_field(j, "reserved_bytes", &r->s.memory_reserved);
	gw_json_object_end(j);
	gw_json_key(j, "bar1_memory");
	gw_json_object_begin(j);
	gw_json_u64_field(j, "total_bytes", &r->d->bar1_total);
	gw_json_u64_field(j, "used_bytes", &r->s.bar1_used);
	gw_json_object_end(j);
}

static void json_load(gw_json *j, const struct report *r)
{
	const gw_device_sample *s = &r->s;

	gw_json_key(j, "utilization");
	gw_json_object_begin(j);
	gw_json_u64_field(j, "gpu_percent", &s->gpu_util);
	gw_json_u64_field(j, "memory_percent", &s->mem_util);
	gw_json_u64_field(j, "encoder_percent", &s->encoder_util);
	gw_json_u64_field(j, "decoder_percent", &s->decoder_util);
	gw_json_object_end(j);
	gw_json_f64_field(j, "temperature_c", &s->temperature, 1);
	gw_json_key(j, "temperature");
	gw_json_object_begin(j);
	gw_json_f64_field(j, "gpu_c", &s->temperature, 1);
	gw_json_f64_field(j, "memory_c", &s->temperature_memory, 1);
	gw_json_f64_field(j, "slowdown_c", &s->temperature_slowdown, 1);
	gw_json_f64_field(j, "shutdown_c", &s->temperature_shutdown, 1);
	gw_json_object_end(j);
	gw_json_u64_field(j, "fan_percent", &s->fan_percent);
	gw_json_key(j, "power");
	gw_json_object_begin(j);
	gw_json_f64_field(j, "draw_w", &s->power_draw, 3);
	gw_json_f64_field(j, "limit_w", &s->power_limit, 3);
	gw_json_f64_field(j, "management_limit_w", &s->power_management_limit, 3);
	gw_json_f64_field(j, "energy_j", &s->energy, 3);
	gw_json_object_end(j);
	gw_json_key(j, "clocks");
	gw_json_object_begin(j);
	gw_json_u64_field(j, "sm_mhz", &s->sm_clock);
	gw_json_u64_field(j, "mem_mhz", &s->mem_clock);
	gw_json_u64_field(j, "graphics_mhz", &s->graphics_clock);
	gw_json_u64_field(j, "video_mhz", &s->video_clock);
	gw_json_u64_field(j, "max_sm_mhz", &r->d->max_sm_clock);
	gw_json_u64_field(j, "max_mem_mhz", &r->d->max_mem_clock);
	gw_json_u64_field(j, "max_graphics_mhz", &r->d->max_graphics_clock);
	gw_json_object_end(j);
	gw_json_key(j, "pstate");
	if (GW_VALID(s->pstate)) {
		char a[8];

		snprintf(a, sizeof(a), "P%u", (unsigned)(s->pstate.v % 100));
		gw_json_string(j, a);
	} else {
		gw_json_null(j);
	}
}

static void json_pcie(gw_json *j, const struct report *r)
{
	const gw_device_sample *s = &r->s;

	gw_json_key(j, "pcie");
	gw_json_object_begin(j);
	gw_json_u64_field(j, "gen", &s->pcie_gen);
	gw_json_u64_field(j, "width", &s->pcie_width);
	gw_json_u64_field(j, "max_gen", &r->d->pcie_max_gen);
	gw_json_u64_field(j, "max_width", &r->d->pcie_max_width);
	gw_json_u64_field(j, "gpu_max_gen", &r->d->pcie_gpu_max_gen);
	gw_json_u64_field(j, "tx_bytes_per_s", &s->pcie_tx);
	gw_json_u64_field(j, "rx_bytes_per_s", &s->pcie_rx);
	gw_json_u64_field(j, "replay_counter", &s->pcie_replay_counter);
	gw_json_object_end(j);
}

static void json_modes(gw_json *j, const struct report *r)
{
	const gw_device_sample *s = &r->s;

	json_flag(j, "persistence_mode", &s->persistence_mode);
	gw_json_key(j, "compute_mode");
	gw_json_string(j, GW_VALID(s->compute_mode) ? compute_mode_name(s->compute_mode.v) : NULL);
	json_flag(j, "display_mode", &s->display_mode);
	gw_json_key(j, "throttle_reasons");
	if (GW_VALID(s->throttle_reasons)) {
		gw_json_array_begin(j);
		for (int bit = 0; bit < 64; bit++) {
			uint64_t m = (uint64_t)1 << bit;
			const char *name = throttle_reason_name(m);
			char unknown[32];

			if (!(s->throttle_reasons.v & m))
				continue;
			if (!name) {
				snprintf(unknown, sizeof(unknown), "unknown_0x%" PRIx64, m);
				name = unknown;
			}
			gw_json_string(j, name);
		}
		gw_json_array_end(j);
	} else {
		gw_json_null(j);
	}
}

static void json_ecc(gw_json *j, const struct report *r)
{
	const gw_device_sample *s = &r->s;

	gw_json_key(j, "ecc");
	gw_json_object_begin(j);
	json_flag(j, "enabled", &s->ecc_current);
	json_flag(j, "pending", &s->ecc_pending);
	gw_json_u64_field(j, "corrected_volatile", &s->ecc_corrected_volatile);
	gw_json_u64_field(j, "uncorrected_volatile", &s->ecc_uncorrected_volatile);
	gw_json_u64_field(j, "corrected_aggregate", &s->ecc_corrected_aggregate);
	gw_json_u64_field(j, "uncorrected_aggregate", &s->ecc_uncorrected_aggregate);
	gw_json_object_end(j);
	gw_json_key(j, "remapped_rows");
	gw_json_object_begin(j);
	gw_json_u64_field(j, "correctable", &s->remapped_correctable);
	gw_json_u64_field(j, "uncorrectable", &s->remapped_uncorrectable);
	json_flag(j, "pending", &s->remapped_pending);
	json_flag(j, "failure", &s->remapped_failure);
	gw_json_object_end(j);
}

static void json_mig(gw_json *j, const struct report *r)
{
	const gw_device_sample *s = &r->s;

	gw_json_key(j, "mig");
	gw_json_object_begin(j);
	json_flag(j, "enabled", &s->mig_current);
	json_flag(j, "pending", &s->mig_pending);
	gw_json_u64_field(j, "max_devices", &s->mig_max_devices);
	gw_json_key(j, "devices");
	gw_json_array_begin(j);
	for (int i = 0; i < s->mig_count && i < GW_MAX_MIG; i++) {
		const gw_mig_device *m = &s->mig[i];

		gw_json_object_begin(j);
		gw_json_str_field(j, "uuid", &m->uuid);
		gw_json_str_field(j, "name", &m->name);
		gw_json_u64_field(j, "gpu_instance_id", &m->gpu_instance_id);
		gw_json_u64_field(j, "compute_instance_id", &m->compute_instance_id);
		gw_json_u64_field(j, "multiprocessor_count", &m->multiprocessor_count);
		gw_json_key(j, "memory");
		gw_json_object_begin(j);
		gw_json_u64_field(j, "total_bytes", &m->memory_total);
		gw_json_u64_field(j, "used_bytes", &m->memory_used);
		gw_json_u64_field(j, "free_bytes", &m->memory_free);
		gw_json_object_end(j);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	gw_json_object_end(j);
}

static void json_processes(gw_json *j, const struct report *r)
{
	gw_json_key(j, "processes");
	if (r->procs_rc < 0 || !device_readable(r->d)) {
		gw_json_null(j); /* unknown, not "none" */
		return;
	}
	gw_json_array_begin(j);
	for (size_t i = 0; i < r->nprocs; i++) {
		const gw_process *p = &r->procs[i];

		gw_json_object_begin(j);
		gw_json_key(j, "pid");
		gw_json_uint(j, p->pid);
		gw_json_key(j, "type");
		gw_json_string(j, process_type_name(p->type));
		gw_json_key(j, "user");
		gw_json_string(j, p->pid_resolved && p->user[0] ? p->user : NULL);
		gw_json_key(j, "command");
		gw_json_string(j, p->pid_resolved && p->command[0] ? p->command : NULL);
		gw_json_key(j, "in_pid_namespace");
		gw_json_bool(j, p->pid_resolved);
		gw_json_u64_field(j, "used_memory_bytes", &p->used_memory);
		gw_json_u64_field(j, "gpu_instance_id", &p->gpu_instance_id);
		gw_json_u64_field(j, "compute_instance_id", &p->compute_instance_id);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
}

static void json_device(gw_json *j, const struct report *r)
{
	gw_json_object_begin(j);
	json_identity(j, r->d);
	json_memory(j, r);
	json_load(j, r);
	json_pcie(j, r);
	json_modes(j, r);
	json_ecc(j, r);
	json_mig(j, r);
	json_processes(j, r);
	json_health(j, r->d);
	gw_json_key(j, "error");
	gw_json_string(j, r->sample_rc < 0 && r->sample_rc != GW_ELOST ? r->sample_error : NULL);
	gw_json_object_end(j);
}

static void json_driver(gw_json *j, const gw_context *ctx)
{
	const gw_driver_info *drv = gw_context_driver(ctx);
	char a[32];

	gw_json_key(j, "driver");
	gw_json_object_begin(j);
	gw_json_str_field(j, "version", &drv->driver_version);
	gw_json_key(j, "cuda_driver_version");
	gw_json_string(j, GW_VALID(drv->cuda_driver_version)
			  ? cuda_version_text(a, sizeof(a), drv->cuda_driver_version.v) : NULL);
	gw_json_str_field(j, "nvml_version", &drv->nvml_version);
	gw_json_str_field(j, "kernel_module_version", &drv->kernel_module_version);
	gw_json_str_field(j, "amdgpu_version", &drv->amdgpu_version);
	gw_json_object_end(j);
}

/* ---- the command -------------------------------------------------------- */

struct info_opts {
	struct opt_list ids;  /* every -i, in order */
	char *selectors;      /* those joined with ',' (NULL: all GPUs) */
	bool json, quiet;
};

static const struct option info_options[] = {
	OPT_LIST('i', "id", struct info_opts, ids, "SEL",
		 "only the GPUs SEL names (a comma-separated list; -i may be repeated): gpuwise index "
		 "(\"0\"), MIG device as list numbers it (\"0:1\"), UUID or a unique prefix of a GPU or MIG "
		 "UUID (\"GPU-8a5f\", \"MIG-8a3b\", or the 8 hex digits list prints), or PCI bus id "
		 "(\"18:00.0\"). Digits only: fewer than 8 are an index, 8 or more a UUID prefix"),
	OPT_BOOL(0, "json", struct info_opts, json, "print the JSON document described in docs/commands/info.md"),
	OPT_BOOL('q', "quiet", struct info_opts, quiet,
		 "print nothing (usage errors excepted); the exit status tells whether the GPU(s) can be "
		 "read (gpuwise info -q -i 0 && ...)"),
	OPT_END()
};

/* Every -i value joined with ',': each may itself be a list ("0,1"), and
 * all of them select; none is silently dropped. NULL when none was given. */
static char *join_selectors(const struct opt_list *ids)
{
	char *joined = NULL;

	for (size_t k = 0; k < ids->n; k++) {
		char *next = joined ? str_printf("%s,%s", joined, ids->v[k]) : str_printf("%s", ids->v[k]);

		free(joined);
		if (!next) {
			error_msg("out of memory");
			exit(EXIT_FAIL);
		}
		joined = next;
	}
	return joined;
}

/* What one report covers: a GPU, and which of its MIG devices (a bit per
 * MIG index; all of them when the whole GPU was selected). */
struct target {
	int device;
	unsigned mig_mask;
};

/* Resolve -i into targets, in the order given, one per GPU (MIG devices of
 * one GPU merged into its report); returns an exit code. */
static int select_targets(gw_context *ctx, const char *sel, bool quiet, struct target **out, int *n)
{
	gw_selection *list = NULL;
	size_t count = 0;
	struct target *t;
	int rc, nt = 0, ndev = gw_device_count(ctx);

	*out = NULL;
	*n = 0;
	if (sel && (rc = gw_context_select(ctx, sel, &list, &count)) < 0) {
		if (!quiet || rc != GW_ENOTFOUND)
			error_msg("%s%s", gw_error_last(), rc == GW_ENOTFOUND ? "; see 'gpuwise list'" : "");
		return rc == GW_ENOTFOUND ? EXIT_FAIL : rc == GW_ENOMEM ? EXIT_FAIL : EXIT_USAGE;
	}
	if (!(t = calloc(sel ? count + 1 : (size_t)ndev + 1, sizeof(*t)))) {
		gw_selection_free(list);
		error_msg("out of memory");
		return EXIT_FAIL;
	}
	if (!sel)
		for (int i = 0; i < ndev; i++)
			t[nt++] = (struct target){ i, ALL_MIG };
	for (size_t k = 0; k < count; k++) {
		int j = 0;

		while (j < nt && t[j].device != list[k].device)
			j++;
		if (j == nt)
			t[nt++] = (struct target){ list[k].device, 0 };
		t[j].mig_mask |= list[k].mig < 0 ? ALL_MIG : 1u << list[k].mig;
	}
	gw_selection_free(list);
	*out = t;
	*n = nt;
	return EXIT_OK;
}

static int emit(gw_context *ctx, const struct info_opts *o, const struct target *t, int nt, const char *problem)
{
	gw_json *j = NULL;
	bool color = use_color(stdout);
	int rc = 0;

	if (o->json) {
		if (!(j = gw_json_new(2))) {
			error_msg("out of memory");
			return -1;
		}
		gw_json_object_begin(j);
		gw_json_key(j, "gpuwise_version");
		gw_json_string(j, gw_version());
		json_driver(j, ctx);
		json_backends(j, ctx);
		gw_json_key(j, "devices");
		gw_json_array_begin(j);
	} else if (!o->quiet) {
		human_driver(ctx, gw_device_count(ctx));
		human_backends(ctx);
	}
	for (int k = 0; k < nt; k++) {
		struct report r;

		report_read(ctx, t[k].device, &r);
		report_only_mig(&r, t[k].mig_mask);
		if (j)
			json_device(j, &r);
		else if (!o->quiet)
			human_device(&r, color);
		report_release(&r);
	}
	if (j) {
		gw_json_array_end(j);
		rc = json_finish(j, problem);
	}
	return rc;
}

static int cmd_info(int argc, char **argv)
{
	struct info_opts o = { { { NULL }, 0 }, NULL, false, false };
	struct target *t = NULL;
	gw_context *ctx;
	char problem[1024];
	char **args;
	int nt = 0, rc, readable = 0;

	if (parse_options(&cmd_info_def, argc, argv, &o, &args) == PARSE_HELP)
		return EXIT_OK;
	o.selectors = join_selectors(&o.ids);
	if (!(ctx = open_context())) {
		free(o.selectors);
		return EXIT_FAIL;
	}
	if ((rc = select_targets(ctx, o.selectors, o.quiet, &t, &nt)) != EXIT_OK) {
		gw_context_free(ctx);
		free(o.selectors);
		return rc;
	}
	for (int k = 0; k < nt; k++)
		readable += device_readable(gw_device_get(ctx, t[k].device));
	problem[0] = '\0';
	if (!readable) {
		if (o.selectors && nt == 1) {
			const gw_device_info *d = gw_device_get(ctx, t[0].device);

			snprintf(problem, sizeof(problem), "GPU %d cannot be read: %s%s%s", t[0].device,
				 gw_health_name(d->health), d->health_reason[0] ? ": " : "", d->health_reason);
		} else if (o.selectors) {
			snprintf(problem, sizeof(problem), "none of the %d selected GPUs can be read", nt);
		} else {
			no_gpu_sentence(ctx, problem, sizeof(problem));
		}
		if (!o.quiet)
			error_msg("%s", problem);
	}
	rc = (o.json || !o.quiet) ? emit(ctx, &o, t, nt, problem[0] ? problem : NULL) : 0;
	gw_context_free(ctx);
	free(t);
	free(o.selectors);
	if (rc < 0)
		return EXIT_FAIL;
	return readable ? EXIT_OK : EXIT_FAIL;
}

const struct cmd cmd_info_def = {
	.name = "info",
	.fn = cmd_info,
	.summary = N_("everything about each GPU (nvidia-smi -q), or --json"),
	.options = info_options,
	.description =
		"Report everything gpuwise knows about each GPU (or the one selected), like `nvidia-smi -q`: "
		"driver and CUDA driver versions; per GPU its identity (name, UUID, serial, VBIOS, PCI ids, "
		"kernel driver), architecture, compute capability or gfx target, memory, BAR1, utilization, "
		"temperature, fan, power, clocks, PCIe link, modes, clock event (throttle) reasons, ECC, "
		"remapped rows, MIG devices, processes and health. A value the GPU does not have prints N/A; "
		"one that could not be read prints \"error (code N)\".",
	.exit_status = "Exit status: 0 when at least one reported GPU could be read; 1 when none could, or an "
		       "entry of SEL matches no GPU; 2 on a usage error (unknown option, missing, empty or "
		       "ambiguous SEL).",
};
