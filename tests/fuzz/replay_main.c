/* Replays a fuzz target's corpus as an ordinary test: every file in the
 * folders (or the files) named on the command line is fed to
 * LLVMFuzzerTestOneInput once. A crash or sanitizer report fails the test.
 * The same fuzz_*.c files build with clang -fsanitize=fuzzer for real
 * fuzzing (make fuzz). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return 0;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	if (n < 0 || !(buf = malloc((size_t)n + 1))) {
		fclose(f);
		return 0;
	}
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 1;
}

static int replay_path(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int count = 0;

	if (stat(path, &st) != 0)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	if (!(d = opendir(path)))
		return 0;
	while ((e = readdir(d))) {
		char full[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(full, sizeof(full), "%s/%s", path, e->d_name);
		count += replay_path(full);
	}
	closedir(d);
	return count;
}

int main(int argc, char **argv)
{
	int count = 0;
	static const uint8_t empty[1];

	/* The empty input and a lone NUL are always worth a try. */
	LLVMFuzzerTestOneInput(empty, 0);
	LLVMFuzzerTestOneInput(empty, 1);
	for (int i = 1; i < argc; i++)
		count += replay_path(argv[i]);
	printf("replayed %d inputs\n", count);
	return 0;
}
