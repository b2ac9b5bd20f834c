/* kcount.c - counting a tracepoint's hits by key inside the kernel: the
 * event's fields are found in its tracefs format file, a BPF program built
 * here adds each hit (whose dev matches) to a hash map, and the map is read
 * back with the bpf() system call.  No ring buffer, so no lost events. */
#include "kcount.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KEY_SIZE 16
#define VAL_SIZE 16
#define MAX_INSNS 64

struct field {
	int off, size;
};

struct prog {
	struct bpf_insn insn[MAX_INSNS];
	int n;
};

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

void kcount_init(struct kcount *kc)
{
	memset(kc, 0, sizeof(*kc));
	kc->map_fd = kc->drop_fd = kc->prog_fd = kc->perf_fd = -1;
}

errcode_t kcount_available(char *why, size_t len)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = 8;
	a.max_entries = 1;
	fd = (int)sys_bpf(BPF_MAP_CREATE, &a);
	if (fd < 0) {
		int e = errno;

		snprintf(why, len, "the kernel refuses BPF maps (%s): counting "
			 "in the kernel needs root and CONFIG_BPF_SYSCALL",
			 strerror(e));
		return e;
	}
	close(fd);
	return 0;
}

/* Finds field name in events/EVENT/format: its offset and size. */
static errcode_t find_field(const char *root, const char *event,
			    const char *name, struct field *f)
{
	char p[PATH_MAX], line[512], want[80];
	FILE *fp;
	errcode_t err = ENOENT;

	snprintf(p, sizeof(p), "%s/events/%s/format", root, event);
	snprintf(want, sizeof(want), " %s;", name);
	fp = fopen(p, "r");
	if (!fp)
		return errno;
	while (fgets(line, sizeof(line), fp)) {
		char *q = strstr(line, want), *o;

		if (!q || strncmp(line, "\tfield:", 7))
			continue;
		o = strstr(q, "offset:");
		if (o && sscanf(o, "offset:%d;\tsize:%d;", &f->off,
				&f->size) == 2 && f->off >= 0 &&
		    (f->size == 1 || f->size == 2 || f->size == 4 ||
		     f->size == 8)) {
			err = 0;
			break;
		}
	}
	fclose(fp);
	return err;
}

static int emit(struct prog *p, __u8 code, __u8 dst, __u8 src, __s16 off,
		__s32 imm)
{
	struct bpf_insn *i = &p->insn[p->n];

	memset(i, 0, sizeof(*i));
	i->code = code;
	i->dst_reg = dst;
	i->src_reg = src;
	i->off = off;
	i->imm = imm;
	return p->n++;
}

static __u8 size_code(int size)
{
	return size == 1 ? BPF_B : size == 2 ? BPF_H : size == 4 ? BPF_W
								 : BPF_DW;
}

static void emit_map(struct prog *p, __u8 reg, int fd)
{
	emit(p, BPF_LD | BPF_DW | BPF_IMM, reg, BPF_PSEUDO_MAP_FD, 0, fd);
	emit(p, 0, 0, 0, 0, 0);
}

/* Points jump j at the next instruction to be emitted. */
static void land(struct prog *p, int j)
{
	p->insn[j].off = (__s16)(p->n - j - 1);
}

/* *(u64 *)(r0 + 0) += 1 and *(u64 *)(r0 + 8) += r7, atomically. */
static void emit_add(struct prog *p)
{
	emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1);
	emit(p, BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0, BPF_REG_1, 0,
	     BPF_ADD);
	emit(p, BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0, BPF_REG_7, 8,
	     BPF_ADD);
}

static void emit_lookup(struct prog *p, int fd, __s32 keyoff)
{
	emit_map(p, BPF_REG_1, fd);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, keyoff);
	emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
}

/*
 * The program: if dev matches, key = the fields, then find-or-insert the
 * key's {hits, sum} and add; an insert that fails twice (the map is full)
 * counts a drop.  Stack: key at -16, new value at -32, drop index at -36.
 */
static void build(struct prog *p, struct field dev, __u64 devval,
		  const struct field *key, int nkeys, const struct field *sum,
		  int map_fd, int drop_fd)
{
	int out[6], nout = 0, j_ins, i;

	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	emit(p, BPF_LDX | BPF_MEM | size_code(dev.size), BPF_REG_2,
	     BPF_REG_6, (__s16)dev.off, 0);
	out[nout++] = emit(p, BPF_JMP32 | BPF_JNE | BPF_K, BPF_REG_2, 0, 0,
			   (__s32)(__u32)devval);
	emit(p, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, -16, 0);
	emit(p, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, -8, 0);
	for (i = 0; i < nkeys; i++) {
		emit(p, BPF_LDX | BPF_MEM | size_code(key[i].size), BPF_REG_3,
		     BPF_REG_6, (__s16)key[i].off, 0);
		emit(p, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_3,
		     (__s16)(-16 + 8 * i), 0);
	}
	if (sum)
		emit(p, BPF_LDX | BPF_MEM | size_code(sum->size), BPF_REG_7,
		     BPF_REG_6, (__s16)sum->off, 0);
	else
		emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_7, 0, 0, 0);

	emit_lookup(p, map_fd, -16);
	j_ins = emit(p, BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 0, 0);
	emit_add(p);
	out[nout++] = emit(p, BPF_JMP | BPF_JA, 0, 0, 0, 0);

	land(p, j_ins);
	emit(p, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, -32, 1);
	emit(p, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_7, -24, 0);
	emit_map(p, BPF_REG_1, map_fd);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -16);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_3, BPF_REG_10, 0, 0);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, -32);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0, BPF_NOEXIST);
	emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_update_elem);
	out[nout++] = emit(p, BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 0, 0);

	/* another CPU inserted the key first, or the map is full */
	emit_lookup(p, map_fd, -16);
	j_ins = emit(p, BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 0, 0);
	emit_add(p);
	out[nout++] = emit(p, BPF_JMP | BPF_JA, 0, 0, 0, 0);

	land(p, j_ins);
	emit(p, BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -36, 0);
	emit_lookup(p, drop_fd, -36);
	out[nout++] = emit(p, BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 0, 0);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1);
	emit(p, BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0, BPF_REG_1, 0,
	     BPF_ADD);

	for (i = 0; i < nout; i++)
		land(p, out[i]);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

static int map_create(__u32 type, __u32 ksize, __u32 vsize, __u32 max)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = ksize;
	a.value_size = vsize;
	a.max_entries = max;
	return (int)sys_bpf(BPF_MAP_CREATE, &a);
}

/* The verifier's last non-empty line: why it refused. */
static const char *last_line(char *log)
{
	size_t n = strlen(log);
	char *p;

	while (n && log[n - 1] == '\n')
		log[--n] = 0;
	p = strrchr(log, '\n');
	return p ? p + 1 : log;
}

static errcode_t load(struct kcount *kc, const struct prog *p, char *why,
		      size_t len)
{
	static const char license[] = "GPL";
	char *log = calloc(1, 65536);
	union bpf_attr a;
	errcode_t err = 0;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_TRACEPOINT;
	a.insns = (__u64)(unsigned long)p->insn;
	a.insn_cnt = (__u32)p->n;
	a.license = (__u64)(unsigned long)license;
	kc->prog_fd = (int)sys_bpf(BPF_PROG_LOAD, &a);
	if (kc->prog_fd >= 0)
		goto out;
	err = errno;
	if (log) {	/* again, for the verifier's reason */
		a.log_buf = (__u64)(unsigned long)log;
		a.log_size = 65536;
		a.log_level = 1;
		kc->prog_fd = (int)sys_bpf(BPF_PROG_LOAD, &a);
		if (kc->prog_fd >= 0) {
			err = 0;	/* it loaded after all */
			goto out;
		}
	}
	snprintf(why, len, "the kernel refused the counting program (%s)%s%s",
		 strerror(err), log && *log ? ": " : "",
		 log && *log ? last_line(log) : "");
out:
	free(log);
	return err;
}

/* Attaches the program to the event through one perf event: a tracepoint's
 * programs run for its hits on every CPU. */
static errcode_t attach(struct kcount *kc, const char *root,
			const char *event, char *why, size_t len)
{
	struct perf_event_attr pa;
	char p[PATH_MAX];
	unsigned long long id;
	FILE *fp;
	int fd;

	snprintf(p, sizeof(p), "%s/events/%s/id", root, event);
	fp = fopen(p, "r");
	if (!fp || fscanf(fp, "%llu", &id) != 1) {
		errcode_t e = fp ? EINVAL : errno;

		if (fp)
			fclose(fp);
		snprintf(why, len, "cannot read %s", p);
		return e;
	}
	fclose(fp);
	memset(&pa, 0, sizeof(pa));
	pa.type = PERF_TYPE_TRACEPOINT;
	pa.size = sizeof(pa);
	pa.config = id;
	pa.sample_period = 1;
	pa.disabled = 1;
	fd = (int)syscall(__NR_perf_event_open, &pa, -1, 0, -1,
			  PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		errcode_t e = errno;

		snprintf(why, len, "cannot open a perf event on %s (%s)",
			 event, strerror(e));
		return e;
	}
	kc->perf_fd = fd;
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, kc->prog_fd) ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		errcode_t e = errno;

		snprintf(why, len, "cannot attach the counting program to %s "
			 "(%s)", event, strerror(e));
		return e;
	}
	return 0;
}

errcode_t kcount_open(struct kcount *kc, const char *root, const char *event,
		      __u64 dev, const char *const *keys, int nkeys,
		      const char *sum, unsigned max_keys, char *why,
		      size_t len)
{
	struct field devf, kf[2], sf;
	struct prog *p = NULL;
	errcode_t err;
	int i;

	kcount_init(kc);
	if (nkeys < 0 || nkeys > 2 || !max_keys) {
		snprintf(why, len, "bad counter for %s", event);
		return EINVAL;
	}
	err = find_field(root, event, "dev", &devf);
	for (i = 0; !err && i < nkeys; i++)
		err = find_field(root, event, keys[i], &kf[i]);
	if (!err && sum)
		err = find_field(root, event, sum, &sf);
	if (err || devf.size != 4) {
		snprintf(why, len, "the tracepoint %s lacks the fields to "
			 "count by", event);
		return err ? err : EINVAL;
	}
	kc->map_fd = map_create(BPF_MAP_TYPE_HASH, KEY_SIZE, VAL_SIZE,
				max_keys);
	kc->drop_fd = map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1);
	if (kc->map_fd < 0 || kc->drop_fd < 0) {
		err = errno;
		snprintf(why, len, "cannot create a BPF map (%s)",
			 strerror(err));
		goto out;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		err = ENOMEM;
		snprintf(why, len, "out of memory");
		goto out;
	}
	build(p, devf, dev, kf, nkeys, sum ? &sf : NULL, kc->map_fd,
	      kc->drop_fd);
	err = load(kc, p, why, len);
	if (!err)
		err = attach(kc, root, event, why, len);
out:
	free(p);
	if (err)
		kcount_close(kc);
	return err;
}

errcode_t kcount_read(struct kcount *kc, struct kcount_row **rowsp,
		      size_t *np, __u64 *dropped)
{
	struct kcount_row *rows = NULL;
	size_t n = 0, cap = 0;
	__u64 key[2], next[2], val[2];
	__u32 zero = 0;
	union bpf_attr a;
	int first = 1;

	*rowsp = NULL;
	*np = 0;
	*dropped = 0;
	for (;;) {
		memset(&a, 0, sizeof(a));
		a.map_fd = (__u32)kc->map_fd;
		a.key = first ? 0 : (__u64)(unsigned long)key;
		a.next_key = (__u64)(unsigned long)next;
		if (sys_bpf(BPF_MAP_GET_NEXT_KEY, &a)) {
			if (errno == ENOENT)
				break;
			free(rows);
			return errno;
		}
		first = 0;
		memcpy(key, next, sizeof(key));
		memset(&a, 0, sizeof(a));
		a.map_fd = (__u32)kc->map_fd;
		a.key = (__u64)(unsigned long)key;
		a.value = (__u64)(unsigned long)val;
		if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &a))
			continue;	/* removed meanwhile: not ours */
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 256;
			struct kcount_row *nr = realloc(rows,
							nc * sizeof(*nr));
			if (!nr) {
				free(rows);
				return ENOMEM;
			}
			rows = nr;
			cap = nc;
		}
		rows[n].key[0] = key[0];
		rows[n].key[1] = key[1];
		rows[n].hits = val[0];
		rows[n].sum = val[1];
		n++;
	}
	memset(&a, 0, sizeof(a));
	a.map_fd = (__u32)kc->drop_fd;
	a.key = (__u64)(unsigned long)&zero;
	a.value = (__u64)(unsigned long)val;
	if (!sys_bpf(BPF_MAP_LOOKUP_ELEM, &a))
		*dropped = val[0];
	*rowsp = rows;
	*np = n;
	return 0;
}

void kcount_close(struct kcount *kc)
{
	if (kc->perf_fd >= 0) {
		ioctl(kc->perf_fd, PERF_EVENT_IOC_DISABLE, 0);
		close(kc->perf_fd);
	}
	if (kc->prog_fd >= 0)
		close(kc->prog_fd);
	if (kc->map_fd >= 0)
		close(kc->map_fd);
	if (kc->drop_fd >= 0)
		close(kc->drop_fd);
	kcount_init(kc);
}
