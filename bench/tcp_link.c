/* Plain TCP between two nodes of scripts/cluster.sh: the ground truth MPI's
 * figures are held against. Compiled and run by bench/cluster_links.sh, one
 * end per node; C, so that the figures are the kernel's and the link's, not
 * an interpreter's.
 *
 *   tcp_link serve PORT
 *   tcp_link pingpong HOST PORT ROUND_TRIPS REPEATS [spin]
 *                                                    -> one half round trip (us) per repeat
 *   tcp_link stream HOST PORT BYTES REPEATS          -> one rate (Gbit/s) per repeat
 *   tcp_link quit HOST PORT                          -> ends the server
 *
 * Ping-pong: 1-byte messages with TCP_NODELAY, what MPI's smallest message
 * costs below MPI; with "spin", both ends poll their socket without
 * sleeping, as MPI's progress engine waits. Stream: BYTES sent in 1 MiB
 * writes, timed from the first byte to the receiver's acknowledgement of the
 * last (the rate the shaper lets through, not the socket buffer's). A request is one byte of mode and
 * eight of count, big-endian. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { block_bytes = 1 << 20, warmup_round_trips = 100 };

static _Noreturn void die(const char *what) {
    fprintf(stderr, "tcp_link: %s: %s\n", what, strerror(errno));
    exit(1);
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

// MSG_DONTWAIT when the ping-pong spins: both ends poll the socket as MPI's
// progress engine does, instead of sleeping in recv until the kernel wakes
// them (a wake-up of an idle virtual CPU costs tens of microseconds).
static int receive_flags = 0;

static void receive_exactly(int fd, void *buffer, size_t count) {
    char *at = buffer;
    while (count) {
        const ssize_t got = recv(fd, at, count, receive_flags);
        if (got == 0) {
            fprintf(stderr, "tcp_link: the other end closed the connection\n");
            exit(1);
        }
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
            die("recv");
        }
        at += got;
        count -= (size_t)got;
    }
}

static void send_all(int fd, const void *buffer, size_t count) {
    const char *at = buffer;
    while (count) {
        const ssize_t sent = send(fd, at, count, 0);
        if (sent < 0) {
            if (errno == EINTR) continue;
            die("send");
        }
        at += sent;
        count -= (size_t)sent;
    }
}

static void no_delay(int fd) {
    const int one = 1;
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one)) die("TCP_NODELAY");
}

static uint64_t parse_count(const char *text, const char *what) {
    char *end;
    errno = 0;
    const unsigned long long value = strtoull(text, &end, 10);
    if (errno || *end || !*text || value == 0 || value > (1ull << 40)) {
        fprintf(stderr, "tcp_link: %s: expected a count from 1 to 2^40, got '%s'\n", what, text);
        exit(2);
    }
    return value;
}

static int serve(int port) {
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0) die("socket");
    const int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = INADDR_ANY};
    if (bind(listener, (struct sockaddr *)&address, sizeof address)) die("bind");
    if (listen(listener, 1)) die("listen");
    static char block[block_bytes];
    for (;;) {
        struct pollfd waiting = {.fd = listener, .events = POLLIN};
        if (poll(&waiting, 1, 60000) == 0) return 0;  // nobody came for a minute: the bench is gone
        const int fd = accept(listener, NULL, NULL);
        if (fd < 0) die("accept");
        no_delay(fd);
        unsigned char request[9];
        receive_exactly(fd, request, sizeof request);
        uint64_t count = 0;
        for (int i = 1; i < 9; ++i) count = count << 8 | request[i];
        if (request[0] == 'q') return close(fd), 0;
        if (request[0] == 'p' || request[0] == 'P') {
            receive_flags = request[0] == 'P' ? MSG_DONTWAIT : 0;
            for (uint64_t i = 0; i < count; ++i) {
                receive_exactly(fd, block, 1);
                send_all(fd, block, 1);
            }
            receive_flags = 0;
        } else {
            while (count) {
                const ssize_t got = recv(fd, block, count < block_bytes ? count : block_bytes, 0);
                if (got <= 0) break;
                count -= (uint64_t)got;
            }
            send_all(fd, "k", 1);
        }
        close(fd);
    }
}

static int connect_to(const char *host, int port, char mode, uint64_t count) {
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) {
        fprintf(stderr, "tcp_link: '%s' is not an IPv4 address\n", host);
        exit(2);
    }
    for (int attempt = 0; attempt < 100; ++attempt) {  // the server may still be starting
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) die("socket");
        if (connect(fd, (struct sockaddr *)&address, sizeof address) == 0) {
            no_delay(fd);
            unsigned char request[9] = {(unsigned char)mode};
            for (int i = 8; i >= 1; --i, count >>= 8) request[i] = count & 0xff;
            send_all(fd, request, sizeof request);
            return fd;
        }
        close(fd);
        usleep(50000);
    }
    fprintf(stderr, "tcp_link: cannot reach %s:%d\n", host, port);
    exit(1);
}

static void pingpong(const char *host, int port, uint64_t round_trips, uint64_t repeats, int spin) {
    receive_flags = spin ? MSG_DONTWAIT : 0;
    for (uint64_t repeat = 0; repeat < repeats; ++repeat) {
        const int fd = connect_to(host, port, spin ? 'P' : 'p', round_trips + warmup_round_trips);
        char byte = 'x';
        for (int i = 0; i < warmup_round_trips; ++i) send_all(fd, &byte, 1), receive_exactly(fd, &byte, 1);
        const double start = now_s();
        for (uint64_t i = 0; i < round_trips; ++i) send_all(fd, &byte, 1), receive_exactly(fd, &byte, 1);
        printf("%.2f\n", (now_s() - start) / (double)round_trips / 2 * 1e6);
        fflush(stdout);
        close(fd);
    }
}

static void stream(const char *host, int port, uint64_t bytes, uint64_t repeats) {
    static char block[block_bytes];
    for (uint64_t repeat = 0; repeat < repeats; ++repeat) {
        const int fd = connect_to(host, port, 's', bytes);
        const double start = now_s();
        for (uint64_t left = bytes; left;) {
            const size_t part = left < block_bytes ? left : block_bytes;
            send_all(fd, block, part);
            left -= part;
        }
        char acknowledgement;
        receive_exactly(fd, &acknowledgement, 1);
        printf("%.3f\n", (double)bytes * 8 / (now_s() - start) / 1e9);
        fflush(stdout);
        close(fd);
    }
}

static int parse_port(const char *text) {
    const uint64_t port = parse_count(text, "PORT");
    if (port > 65535) {
        fprintf(stderr, "tcp_link: PORT: expected 1 to 65535, got '%s'\n", text);
        exit(2);
    }
    return (int)port;
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "serve")) return serve(parse_port(argv[2]));
    if ((argc == 6 || (argc == 7 && !strcmp(argv[6], "spin"))) && !strcmp(argv[1], "pingpong")) {
        pingpong(argv[2], parse_port(argv[3]), parse_count(argv[4], "ROUND_TRIPS"), parse_count(argv[5], "REPEATS"),
                 argc == 7);
        return 0;
    }
    if (argc == 6 && !strcmp(argv[1], "stream")) {
        stream(argv[2], parse_port(argv[3]), parse_count(argv[4], "BYTES"), parse_count(argv[5], "REPEATS"));
        return 0;
    }
    if (argc == 4 && !strcmp(argv[1], "quit")) return close(connect_to(argv[2], parse_port(argv[3]), 'q', 0)), 0;
    fprintf(stderr, "usage: tcp_link serve PORT | pingpong HOST PORT ROUND_TRIPS REPEATS [spin] | stream HOST PORT BYTES REPEATS | quit HOST PORT\n");
    return 2;
}
