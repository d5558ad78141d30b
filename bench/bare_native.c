/* The bare loop over native's C entry point, the yardstick of bench/bench_native.py: read
 * a file of 81-character lines (plain text, a line feed after each), solve them all with
 * one native_batch call (the same search the lab calls, up to 2 solutions each), print
 * each unique solution or the word the lab prints (none, multiple). No Python, no check.
 * Built by the bench with sudokulab/backends/native/native.c and the lab's flags. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    volatile int stop;
    double seconds;
    long limit;
    long found;
    long nodes, guesses, backtracks, placements, locked;
    int (*on_solution)(const uint8_t *grid);
    void (*on_event)(int kind, int slot, int cell, int digit, const uint16_t *cand);
    uint8_t *out;
    long out_cap;
    double deadline;
    int depth;
} native_ctl;

long native_batch(const char *text, long count, long stride, char *first, char *second,
                  int8_t *status, native_ctl *ctl);

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: bare_native FILE\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 2; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) { perror("read"); return 2; }
    fclose(f);
    long count = size / 82;
    char *first = malloc((size_t)count * 82 + 1), *second = malloc((size_t)count * 81 + 1);
    int8_t *status = malloc((size_t)count + 1);
    char *out = malloc((size_t)count * 82 + 1);
    native_ctl ctl;
    memset(&ctl, 0, sizeof ctl);
    ctl.seconds = -1;
    ctl.limit = 2;
    long done = native_batch(text, count, 82, first, second, status, &ctl);
    long at = 0;
    for (long k = 0; k < done; k++) {
        const char *word = status[k] == 0 ? "none" : status[k] == 2 ? "multiple" : NULL;
        if (word) { at += sprintf(out + at, "%s\n", word); continue; }
        memcpy(out + at, first + k * 82, 82);  /* the solution and its line feed */
        at += 82;
    }
    fwrite(out, 1, (size_t)at, stdout);
    return done == count ? 0 : 1;
}
