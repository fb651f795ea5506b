/* The fault-injection allocator's controls (fail_allocation.c). */
#ifndef HETSCAL_TESTS_FAIL_ALLOCATION_H
#define HETSCAL_TESTS_FAIL_ALLOCATION_H
#ifdef __cplusplus
extern "C" {
#endif

/* Starts counting hetscal's allocations from 0; the k-th fails (k = 0: none fails). */
void fail_allocation_arm(long k);

/* Stops counting. @return how many of hetscal's allocations were counted since the arming;
 * *failed (when not NULL): whether the k-th was reached and failed. */
long fail_allocation_disarm(int* failed);

#ifdef __cplusplus
}
#endif
#endif
