/* Safetensors headers and index files (lib/advise/safetensors.c): exact
 * counts and dtypes, the format's cap, and each malformed header refused
 * with the tensor named and the checkpoint untouched. */
#include <stdlib.h>

#include "check.h"
#include "gpuwise/gpuwise.h"

static const char good[] =
	"{\"__metadata__\":{\"format\":\"pt\"},"
	"\"a.weight\":{\"dtype\":\"BF16\",\"shape\":[4,8],\"data_offsets\":[0,64]},"
	"\"b.bias\":{\"dtype\":\"F32\",\"shape\":[8],\"data_offsets\":[64,96]},"
	"\"scalar\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[96,100]},"
	"\"q\":{\"dtype\":\"F4\",\"shape\":[2,4],\"data_offsets\":[100,104]}}";

static void test_header_len(void)
{
	unsigned char b[8] = {0x10, 0x27, 0, 0, 0, 0, 0, 0};
	uint64_t n = 7;

	CHECK_INT(gw_safetensors_header_len(&n, b, 8), 0);
	CHECK_INT(n, 10000);
	CHECK_INT(gw_safetensors_header_len(&n, b, 7), GW_EPARSE);
	memset(b, 0, 8);
	CHECK_INT(gw_safetensors_header_len(&n, b, 8), GW_EPARSE);       /* 0 */
	b[0] = 0x01, b[1] = 0xe1, b[2] = 0xf5, b[3] = 0x05;               /* 100000001 */
	CHECK_INT(gw_safetensors_header_len(&n, b, 8), GW_EPARSE);
	b[0] = 0x00;                                                       /* 100000000: the cap itself */
	CHECK_INT(gw_safetensors_header_len(&n, b, 8), 0);
	CHECK_INT(n, 100000000);
}

static void test_good(void)
{
	gw_checkpoint c = {0};

	CHECK_INT(gw_checkpoint_add_safetensors(&c, good, strlen(good)), 0);
	CHECK_INT(c.params, 32 + 8 + 1 + 8);
	CHECK_INT(c.bytes, 104);
	CHECK_INT(c.tensors, 4);
	CHECK_INT(c.files, 1);
	CHECK_INT(c.ndtypes, 3);
	CHECK_INT(gw_checkpoint_add_safetensors(&c, good, strlen(good)), 0);   /* a second shard */
	CHECK_INT(c.params, 98);
	CHECK_INT(c.files, 2);
	gw_checkpoint_sort(&c);
	CHECK_STR(c.dtypes[0].name, "BF16");
	CHECK_INT(c.dtypes[0].params, 64);
	CHECK_STR(c.dtypes[1].name, "F32");
	CHECK_STR(c.dtypes[2].name, "F4");
}

static void check_bad(const char *json, const char *what)
{
	gw_checkpoint c = {0}, before;

	c.params = 3;
	before = c;
	CHECK_INT(gw_checkpoint_add_safetensors(&c, json, strlen(json)), GW_EPARSE);
	CHECK(memcmp(&c, &before, sizeof(c)) == 0);
	if (!strstr(gw_error_last(), what))
		fprintf(stderr, "  message was: %s (want %s)\n", gw_error_last(), what);
	CHECK(strstr(gw_error_last(), what) != NULL);
}

static void test_bad(void)
{
	check_bad("[1]", "not a JSON object");
	check_bad("{\"x\":{\"dtype\":\"Q4\",\"shape\":[2],\"data_offsets\":[0,4]}}", "\"x\": unknown dtype");
	check_bad("{\"x\":{\"dtype\":\"F16\",\"shape\":[2],\"data_offsets\":[0,8]}}", "span 8 bytes, the shape 4");
	check_bad("{\"x\":{\"dtype\":\"F16\",\"shape\":[2],\"data_offsets\":[0,4]},"
		  "\"y\":{\"dtype\":\"F16\",\"shape\":[2],\"data_offsets\":[2,6]}}", "share bytes");
	check_bad("{\"x\":{\"dtype\":\"F16\",\"shape\":[-2],\"data_offsets\":[0,4]}}", "shape[0] is not a size");
	check_bad("{\"x\":{\"dtype\":\"F16\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,4]}}",
		  "shape[1] is not a size");
	check_bad("{\"x\":{\"dtype\":\"F16\",\"shape\":[2],\"data_offsets\":[4,0]}}", "not [begin, end]");
	check_bad("{\"x\":{\"shape\":[2],\"data_offsets\":[0,4]}}", "no dtype");
	check_bad("{\"x\":", "not valid JSON");
}

static void test_index(void)
{
	const char *idx = "{\"metadata\":{\"total_size\":1234},\"weight_map\":{"
			  "\"a\":\"model-00001-of-00002.safetensors\",\"b\":\"model-00002-of-00002.safetensors\","
			  "\"c\":\"model-00001-of-00002.safetensors\"}}";
	char *names = NULL;
	size_t n = 0;
	uint64_t total = 0;

	CHECK_INT(gw_safetensors_index_files(&names, &n, &total, idx, strlen(idx)), 0);
	CHECK_INT(n, 2);
	CHECK_INT(total, 1234);
	CHECK_STR(names, "model-00001-of-00002.safetensors");
	CHECK_STR(names + strlen(names) + 1, "model-00002-of-00002.safetensors");
	gw_checkpoint_free(names);
	names = NULL;
	idx = "{\"weight_map\":{\"a\":\"../x.safetensors\"}}";
	CHECK_INT(gw_safetensors_index_files(&names, &n, &total, idx, strlen(idx)), GW_EPARSE);
	CHECK(names == NULL);
	idx = "{\"weight_map\":{\"a\":\"pytorch_model.bin\"}}";
	CHECK_INT(gw_safetensors_index_files(&names, &n, &total, idx, strlen(idx)), GW_EPARSE);
	idx = "{\"weight_map\":{\"a\":\".safetensors\"}}";
	CHECK_INT(gw_safetensors_index_files(&names, &n, &total, idx, strlen(idx)), GW_EPARSE);
	idx = "{\"metadata\":{\"total_size\":13476839424.0},\"weight_map\":{\"a\":\"model.safetensors\"}}";
	CHECK_INT(gw_safetensors_index_files(&names, &n, &total, idx, strlen(idx)), 0);
	CHECK_INT(total, 13476839424ull);
	gw_checkpoint_free(names);
	gw_checkpoint_free(NULL);
}

int main(void)
{
	test_header_len();
	test_good();
	test_bad();
	test_index();
	return CHECK_DONE();
}
