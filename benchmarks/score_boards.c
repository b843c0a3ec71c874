/* A plain C scorer: the reference that benchmarks/score_cli.py times the CLI against.

       cc -O2 -o score_boards score_boards.c
       ./score_boards WORDLIST [BOARDS]      (boards from stdin without BOARDS)

   Reads a word list (one word a line; cleaned as boggle-opt cleans it: lower
   case, a-z only, 3+ letters, every q followed by u, "qu" on one cell), builds
   a trie with 26 child slots per node, then scores square boards (4x4 and so
   on: the side is the square root of the line's length) one a line, printing
   "board<TAB>score<TAB>words" under the standard rule (1, 1, 2, 3, 5, 11 for
   3 to 8+ letters). Distinct words count once: a per-node stamp records the
   board that last found each word. No error handling beyond what a benchmark
   needs: a bad line is skipped. */

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int32_t child[26];
    int32_t points; /* -1: no word ends here */
    uint32_t stamp;
} Node;

static Node *nodes;
static int32_t n_nodes, cap_nodes;

static int32_t new_node(void) {
    if (n_nodes == cap_nodes) {
        cap_nodes = cap_nodes ? 2 * cap_nodes : 1024;
        nodes = realloc(nodes, (size_t)cap_nodes * sizeof(Node));
        if (!nodes) { perror("realloc"); exit(1); }
    }
    memset(&nodes[n_nodes], 0, sizeof(Node));
    nodes[n_nodes].points = -1;
    return n_nodes++;
}

static int standard_points(int len) {
    static const int table[] = {1, 1, 2, 3, 5, 11};
    return table[len - 3 < 5 ? len - 3 : 5];
}

static void add_word(const char *w, int len) {
    int32_t at = 0;
    for (int i = 0; i < len; i++) {
        int letter = w[i] - 'a';
        if (w[i] == 'q') i++; /* "qu" is one cell */
        if (!nodes[at].child[letter]) {
            int32_t id = new_node(); /* may move nodes */
            nodes[at].child[letter] = id;
        }
        at = nodes[at].child[letter];
    }
    nodes[at].points = standard_points(len);
}

static int playable(char *w, int len) {
    if (len < 3) return 0;
    for (int i = 0; i < len; i++) {
        w[i] = (char)tolower((unsigned char)w[i]);
        if (w[i] < 'a' || w[i] > 'z') return 0;
        if (w[i] == 'q' && (i + 1 >= len || tolower((unsigned char)w[i + 1]) != 'u')) return 0;
    }
    return 1;
}

static int side, n_cells;
static int nbr[64][8], n_nbr[64];
static int letters[64];
static uint32_t board_stamp;
static long found_words;

static long dfs(int cell, int32_t node, uint64_t used) {
    long total = 0;
    Node *nd = &nodes[node];
    if (nd->points >= 0 && nd->stamp != board_stamp) {
        nd->stamp = board_stamp;
        total += nd->points;
        found_words++;
    }
    for (int k = 0; k < n_nbr[cell]; k++) {
        int nb = nbr[cell][k];
        if (used & (1ull << nb)) continue;
        int32_t child = nodes[node].child[letters[nb]];
        if (child) total += dfs(nb, child, used | (1ull << nb));
    }
    return total;
}

static void set_geometry(int s) {
    side = s;
    n_cells = s * s;
    for (int c = 0; c < n_cells; c++) {
        int x = c / s, y = c % s;
        n_nbr[c] = 0;
        for (int dx = -1; dx <= 1; dx++)
            for (int dy = -1; dy <= 1; dy++) {
                int nx = x + dx, ny = y + dy;
                if ((dx || dy) && nx >= 0 && nx < s && ny >= 0 && ny < s)
                    nbr[c][n_nbr[c]++] = nx * s + ny;
            }
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s WORDLIST [BOARDS]\n", argv[0]);
        return 2;
    }
    FILE *wf = fopen(argv[1], "r");
    if (!wf) { perror(argv[1]); return 1; }
    new_node();
    char line[256];
    while (fgets(line, sizeof line, wf)) {
        int len = (int)strcspn(line, "\r\n");
        while (len > 0 && isspace((unsigned char)line[len - 1])) len--;
        line[len] = 0;
        if (playable(line, len)) add_word(line, len);
    }
    fclose(wf);

    FILE *bf = argc > 2 ? fopen(argv[2], "r") : stdin;
    if (!bf) { perror(argv[2]); return 1; }
    static char out[1 << 16];
    setvbuf(stdout, out, _IOFBF, sizeof out);
    while (fgets(line, sizeof line, bf)) {
        int len = (int)strcspn(line, "\r\n");
        line[len] = 0;
        if (len == 0) continue;
        int s = 1;
        while ((s + 1) * (s + 1) <= len) s++;
        if (s * s != len || s > 8) continue;
        if (s != side) set_geometry(s);
        int ok = 1;
        for (int i = 0; i < len; i++) {
            letters[i] = tolower((unsigned char)line[i]) - 'a';
            if (letters[i] < 0 || letters[i] >= 26) ok = 0;
        }
        if (!ok) continue;
        board_stamp++;
        found_words = 0;
        long total = 0;
        for (int c = 0; c < n_cells; c++) {
            int32_t child = nodes[0].child[letters[c]];
            if (child) total += dfs(c, child, 1ull << c);
        }
        printf("%s\t%ld\t%ld\n", line, total, found_words);
    }
    return 0;
}
