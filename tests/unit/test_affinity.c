/* CPU lists as sysfs writes them (gw__cpulist_parse/format) and the
 * calling thread's affinity round trip (lib/bench/affinity.c, lib/core/thread.c). */
#include <string.h>

#include "check.h"
#include "gpuwise/gpuwise.h"
#include "bench/affinity.h"
#include "core/thread.h"

static void test_parse(void)
{
	cpu_set_t set;

	CHECK_INT(gw__cpulist_parse("0-47,96-143\n", &set), 96);
	CHECK(CPU_ISSET(0, &set) && CPU_ISSET(47, &set) && !CPU_ISSET(48, &set) && CPU_ISSET(143, &set));
	CHECK_INT(gw__cpulist_parse("5", &set), 1);
	CHECK(CPU_ISSET(5, &set));
	CHECK_INT(gw__cpulist_parse("", &set), 0);        /* no local CPUs (some VMs) */
	CHECK_INT(gw__cpulist_parse("\n", &set), 0);
	CHECK_INT(gw__cpulist_parse("1,1,1-2", &set), 2); /* overlaps count once */
	CHECK_INT(gw__cpulist_parse("1023", &set), 1);
	/* garbage, backwards ranges, CPUs past CPU_SETSIZE, trailing junk */
	CHECK_INT(gw__cpulist_parse("1024", &set), GW_EPARSE);
	CHECK_INT(gw__cpulist_parse("99999999999999999999", &set), GW_EPARSE);
	CHECK_INT(gw__cpulist_parse("4-2", &set), GW_EPARSE);
	CHECK_INT(gw__cpulist_parse("0-zz", &set), GW_EPARSE);
	CHECK_INT(gw__cpulist_parse("0,", &set), GW_EPARSE);
	CHECK_INT(gw__cpulist_parse("-1", &set), GW_EPARSE);
	CHECK_INT(gw__cpulist_parse("0-3 x", &set), GW_EPARSE);
	CHECK_INT(gw__cpulist_parse("00000000000000000000000000000001", &set), 1);
	CHECK_INT(gw__cpulist_parse(NULL, &set), GW_EPARSE);
	CHECK_INT(CPU_COUNT(&set), 0);   /* a failed parse leaves an empty set */
}

static void test_format(void)
{
	cpu_set_t set;
	char buf[64], tiny[6];

	gw__cpulist_parse("0-47,96-143,200", &set);
	CHECK(gw__cpulist_format(&set, buf, sizeof(buf)));
	CHECK_STR(buf, "0-47,96-143,200");
	CPU_ZERO(&set);
	CHECK(gw__cpulist_format(&set, buf, sizeof(buf)));
	CHECK_STR(buf, "");
	gw__cpulist_parse("0,2,4,6,8,10", &set);
	CHECK(!gw__cpulist_format(&set, tiny, sizeof(tiny)));   /* cut, and says so */
	CHECK(strlen(tiny) < sizeof(tiny));
}

static void test_thread_round_trip(void)
{
	cpu_set_t before, one, now;
	int first = -1;

	CHECK_INT(gw__thread_affinity_get(&before), 0);
	for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
		if (CPU_ISSET(c, &before))
			first = c;
	CHECK(first >= 0);
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	CHECK_INT(gw__thread_affinity_set(&one), 0);
	CHECK_INT(gw__thread_affinity_get(&now), 0);
	CHECK(CPU_EQUAL(&now, &one));
	CHECK_INT(gw__thread_affinity_set(&before), 0);
	CHECK_INT(gw__thread_affinity_get(&now), 0);
	CHECK(CPU_EQUAL(&now, &before));
	CPU_ZERO(&one);
	CHECK_INT(gw__thread_affinity_set(&one), GW_EIO);   /* no CPU at all: refused */
}

int main(void)
{
	test_parse();
	test_format();
	test_thread_round_trip();
	return CHECK_DONE();
}
