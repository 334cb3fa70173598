#include <pthread.h>
#include <stdio.h>
static volatile long counter[2];
static double arr[4];
static void *work(void *p) { long id = (long)p; for (int i = 0; i < 3; i++) { counter[id] += i; arr[i] = arr[i] * 1.5; } return 0; }
int main(void) { pthread_t t[2]; for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, work, (void *)i);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0); printf("%ld\n", counter[0] + counter[1]); return 0; }
