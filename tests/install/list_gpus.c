/* A program outside gpuwise that uses the installed library the way a user
 * would: #include <gpuwise/gpuwise.h>, `pkg-config --cflags --libs gpuwise`.
 * Prints the library version, then one line per GPU; exit 1 when none.
 * Built by tests/install/ against a staged `make install` and the .debs. */
#include <gpuwise/gpuwise.h>
#include <stdio.h>

int main(void)
{
	gw_context *ctx = NULL;
	int rc = gw_context_new(&ctx, NULL);
	if (rc != 0) {
		fprintf(stderr, "list_gpus: %s\n", gw_error_last());
		return 2;
	}
	printf("libgpuwise %s\n", gw_version());
	int n = gw_device_count(ctx);
	for (int i = 0; i < n; i++) {
		const gw_device_info *d = gw_device_get(ctx, i);
		printf("GPU %d: %s (%s)\n", d->index, d->name.s, d->uuid.s);
	}
	gw_context_free(ctx);
	return n > 0 ? 0 : 1;
}
