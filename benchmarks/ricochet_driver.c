/* Runs fogleman's C Ricochet Robots solver (github.com/fogleman/Ricochet) as its own executable, for
 * `ricochet_peer.py`: none of its code is here. It is built as one program with the clone's ricochet.c,
 * which defines `Game` and `search` (`cc -std=c99 -O3 -I CLONE ricochet_driver.c`, its build script's flags).
 *
 * Reads from stdin the number of runs per puzzle, then per puzzle 261 numbers (the 256 cells' bits, the four
 * robots' cells, the goal's cell: ricochet_peer.to_game); prints per puzzle one line: the solution's moves
 * (robot << 4 | direction bit, as `search` writes them), "|", then each run's CPU seconds of this process
 * (CLOCK_PROCESS_CPUTIME_ID) around `search`, which runs on a fresh copy of the puzzle each time. It answers
 * each puzzle as soon as it is read, so a caller may send them one at a time.
 */
#define _POSIX_C_SOURCE 199309L
#include <time.h>

#define main ricochet_main  /* its own demo program's entry, unused */
#include "ricochet.c"
#undef main

static double cpu_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return now.tv_sec + now.tv_nsec * 1e-9;
}

int main(void) {
    unsigned int runs;
    if (scanf("%u", &runs) != 1)
        return 2;
    Game puzzle;
    for (;;) {
        memset(&puzzle, 0, sizeof puzzle);
        int read = 0;
        for (int i = 0; i < 256; i++)
            read += scanf("%u", &puzzle.grid[i]);
        for (int i = 0; i < 4; i++)
            read += scanf("%u", &puzzle.robots[i]);
        read += scanf("%u", &puzzle.token);
        if (read != 261)
            return read <= 0 ? 0 : 2;
        unsigned char path[MAX_DEPTH];
        unsigned int length = 0;
        double seconds[64];
        for (unsigned int run = 0; run < runs && run < 64; run++) {
            Game game = puzzle;
            double started = cpu_seconds();
            length = search(&game, path, NULL);
            seconds[run] = cpu_seconds() - started;
        }
        for (unsigned int k = 0; k < length; k++)
            printf("%u ", path[k]);
        printf("|");
        for (unsigned int run = 0; run < runs && run < 64; run++)
            printf(" %.9f", seconds[run]);
        printf("\n");
        fflush(stdout);
    }
}
