/* Issue 22's pthreads shape, small enough for Lackey to trace in about a second: a producer writes an array, a
   barrier, three consumers read their thirds of it and add their sums to a counter under a mutex. The main thread
   creates and joins the four. It prints the mutex's and the barrier's address ranges for --sync-addresses. */
#include <pthread.h>
#include <stdio.h>

#define N 512

static long data[N];
static long total;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t barrier;

static void *producer(void *arg) {
    (void) arg;
    for (int i = 0; i < N; i++) {
        data[i] = 3L * i;
    }
    pthread_barrier_wait(&barrier);
    return 0;
}

static void *consumer(void *arg) {
    long id = (long) arg;
    long sum = 0;
    pthread_barrier_wait(&barrier);
    for (int i = (int) id; i < N; i += 3) {
        sum += data[i];
    }
    pthread_mutex_lock(&lock);
    total += sum;
    pthread_mutex_unlock(&lock);
    return 0;
}

int main(void) {
    pthread_t t[4];
    pthread_barrier_init(&barrier, 0, 4);
    pthread_create(&t[0], 0, producer, 0);
    for (long c = 0; c < 3; c++) {
        pthread_create(&t[c + 1], 0, consumer, (void *) c);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], 0);
    }
    printf("total %ld\nsync %p+%zu,%p+%zu\n", total, (void *) &lock, sizeof lock, (void *) &barrier,
            sizeof barrier);
    return total == 3L * N * (N - 1) / 2 ? 0 : 1;
}
