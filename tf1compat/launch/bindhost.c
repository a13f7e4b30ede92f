/* tf1compat bindhost: confines a process's listening sockets to one address.
 *
 * TensorFlow's gRPC server listens on every interface ("0.0.0.0:port" / "[::]:port")
 * whatever host the ClusterSpec gives, and has no option to change that. Loaded with
 * LD_PRELOAD, this wraps bind(2): a bind to the wildcard address is turned into a bind
 * to TF1COMPAT_BIND_HOST (an IPv4 or IPv6 literal); every other bind is unchanged.
 * An IPv6 wildcard socket gets the IPv4-mapped form (::ffff:a.b.c.d) of an IPv4 host.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

typedef int (*bind_fn)(int, const struct sockaddr *, socklen_t);

int bind(int fd, const struct sockaddr *addr, socklen_t len) {
  static bind_fn real_bind = NULL;
  if (real_bind == NULL) real_bind = (bind_fn)dlsym(RTLD_NEXT, "bind");
  const char *host = getenv("TF1COMPAT_BIND_HOST");
  if (host == NULL || host[0] == '\0' || addr == NULL) return real_bind(fd, addr, len);

  struct in_addr v4;
  struct in6_addr v6;
  int host_is_v4 = inet_pton(AF_INET, host, &v4) == 1;
  int host_is_v6 = !host_is_v4 && inet_pton(AF_INET6, host, &v6) == 1;

  if (addr->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
    const struct sockaddr_in *in = (const struct sockaddr_in *)addr;
    if (in->sin_addr.s_addr == htonl(INADDR_ANY) && host_is_v4) {
      struct sockaddr_in copy = *in;
      copy.sin_addr = v4;
      return real_bind(fd, (const struct sockaddr *)&copy, sizeof(copy));
    }
  } else if (addr->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct sockaddr_in6)) {
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)addr;
    if (IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr) && (host_is_v4 || host_is_v6)) {
      struct sockaddr_in6 copy = *in6;
      if (host_is_v6) {
        copy.sin6_addr = v6;
      } else {
        memset(&copy.sin6_addr, 0, sizeof(copy.sin6_addr));
        copy.sin6_addr.s6_addr[10] = 0xff;
        copy.sin6_addr.s6_addr[11] = 0xff;
        memcpy(&copy.sin6_addr.s6_addr[12], &v4, 4);
      }
      return real_bind(fd, (const struct sockaddr *)&copy, sizeof(copy));
    }
  }
  return real_bind(fd, addr, len);
}
