/* Reading commit messages: trailers, "Name <email>", merge subjects, tree URLs. */
#include "flow_internal.h"
#include "maintevo/error.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static const char *const trailer_names[MEV_TRAILER_KINDS] = {
	"Signed-off-by", "Acked-by", "Reviewed-by", "Tested-by", "Reported-by", "Co-developed-by",
	"Link"
};

const char *mev_trailer_name(mev_trailer_kind k)
{
	return (unsigned)k < MEV_TRAILER_KINDS ? trailer_names[k] : "";
}

static int blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

/* Length of the token of a trailer line "Token: value" (0: not one).
 * git: the token is letters, digits and '-', the separator ':'. */
static size_t token_len(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '-'))
		i++;
	if (!i)
		return 0;
	size_t k = i;
	while (k < len && (s[k] == ' ' || s[k] == '\t'))
		k++;
	return k < len && s[k] == ':' ? i : 0;
}

typedef struct {
	const char *p;
	size_t len;
} line_t;

/*
 * The start of the trailer block of msg[0..len), as 'git interpret-trailers'
 * finds it: the last paragraph (after the title paragraph) whose lines are
 * all trailers (or their continuation lines), or that holds a git-made
 * trailer (Signed-off-by:, "(cherry picked from commit") and at least one
 * trailer line for every three other lines.  Returns len when none.
 */
static size_t block_start(const char *msg, size_t len, size_t *end)
{
	size_t e = len, s, title_end = 0;
	int trailers = 0, others = 0, recognised = 0, prev_trailer = 0;

	/* the title paragraph: up to the first blank line */
	while (title_end < len) {
		const char *nl = memchr(msg + title_end, '\n', len - title_end);
		size_t le = nl ? (size_t)(nl - msg) : len;
		if (blank(msg + title_end, le - title_end))
			break;
		title_end = nl ? le + 1 : len;
	}
	/* drop trailing blank lines */
	while (e > 0) {
		size_t ls = e;
		while (ls > 0 && msg[ls - 1] != '\n')
			ls--;
		if (ls == e && ls > 0) { /* an empty last line */
			e = ls - 1;
			continue;
		}
		if (!blank(msg + ls, e - ls))
			break;
		e = ls ? ls - 1 : 0;
	}
	*end = e;
	/* walk back to the blank line that opens the last paragraph (the
	 * title paragraph never is one) */
	s = e;
	for (;;) {
		size_t ls = s;
		while (ls > 0 && msg[ls - 1] != '\n')
			ls--;
		if (ls < title_end || ls == 0)
			return len;
		if (blank(msg + ls, s - ls)) {
			s = ls;
			break;
		}
		s = ls - 1;
	}
	if (s >= e)
		return len;
	while (s < e && msg[s] != '\n')
		s++;
	s++; /* past the '\n' that ends the blank line */
	for (size_t p = s; p < e;) {
		const char *nl = memchr(msg + p, '\n', e - p);
		size_t le = nl ? (size_t)(nl - msg) : e, ll = le - p;
		if (ll && (msg[p] == ' ' || msg[p] == '\t') && prev_trailer) {
			; /* a continuation line */
		} else if (token_len(msg + p, ll)) {
			trailers++;
			prev_trailer = 1;
			if (strncasecmp(msg + p, "Signed-off-by", 13) == 0)
				recognised = 1;
		} else if (ll >= 26 && strncmp(msg + p, "(cherry picked from commit ", 27) == 0) {
			trailers++;
			recognised = 1;
			prev_trailer = 0;
		} else {
			others++;
			prev_trailer = 0;
		}
		p = le + 1;
	}
	if ((trailers && !others) || (recognised && trailers * 3 >= others))
		return s;
	return len;
}

/* Where a patch would start in msg[0..len): the first line that begins
 * with "---" and white space (git's divider; what follows it is no part of
 * the message for interpret-trailers); len when none. */
static size_t patch_start(const char *msg, size_t len)
{
	for (size_t p = 0; p < len;) {
		const char *nl = memchr(msg + p, '\n', len - p);
		if (len - p > 3 && memcmp(msg + p, "---", 3) == 0 && isspace((unsigned char)msg[p + 3]))
			return p;
		p = nl ? (size_t)(nl - msg) + 1 : len;
	}
	return len;
}

int mev__flow_trailers(const char *msg, size_t len, mev__flow_trailer_fn fn, void *ctx)
{
	size_t end, p;
	int rc;
	len = patch_start(msg, len);
	p = block_start(msg, len, &end);
	while (p < end) {
		const char *nl = memchr(msg + p, '\n', end - p);
		size_t le = nl ? (size_t)(nl - msg) : end, ll = le - p, tl = token_len(msg + p, ll);
		if (tl) {
			for (int k = 0; k < MEV_TRAILER_KINDS; k++) {
				const char *name = trailer_names[k];
				if (strlen(name) == tl && strncasecmp(msg + p, name, tl) == 0) {
					const char *v = memchr(msg + p, ':', ll) + 1;
					size_t vl = (size_t)(msg + le - v);
					while (vl && isspace((unsigned char)*v)) {
						v++;
						vl--;
					}
					while (vl && isspace((unsigned char)v[vl - 1]))
						vl--;
					if ((rc = fn(ctx, (mev_trailer_kind)k, v, vl)))
						return rc;
					break;
				}
			}
		}
		p = le + 1;
	}
	return 0;
}

static void trim(const char **s, size_t *len)
{
	while (*len && isspace((unsigned char)**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && isspace((unsigned char)(*s)[*len - 1]))
		(*len)--;
}

void mev__flow_ident(mev__flow_span *name, mev__flow_span *email, const char *v, size_t len)
{
	const char *lt = memchr(v, '<', len), *gt;
	name->p = v;
	name->len = len;
	email->p = v + len;
	email->len = 0;
	if (lt && (gt = memchr(lt, '>', (size_t)(v + len - lt)))) {
		name->len = (size_t)(lt - v);
		email->p = lt + 1;
		email->len = (size_t)(gt - lt - 1);
	} else {
		/* a bare address: "dev@example.org" */
		const char *at = memchr(v, '@', len);
		if (at) {
			const char *b = at, *e = at;
			while (b > v && !isspace((unsigned char)b[-1]))
				b--;
			while (e < v + len && !isspace((unsigned char)*e))
				e++;
			name->len = (size_t)(b - v);
			while (b < e && (*b == '<' || *b == '('))
				b++;
			while (e > b && (e[-1] == '>' || e[-1] == ')' || e[-1] == ','))
				e--;
			email->p = b;
			email->len = (size_t)(e - b);
		}
	}
	trim(&name->p, &name->len);
	trim(&email->p, &email->len);
	/* "Name" in quotes, as some trailers write it */
	if (name->len >= 2 && name->p[0] == '"' && name->p[name->len - 1] == '"') {
		name->p++;
		name->len -= 2;
	}
}

int mev__flow_url(mev_buf *out, const char *s, size_t len)
{
	static const char *const schemes[] = { "git+ssh://", "ssh+git://", "ssh://", "git://",
					       "https://", "http://", "ftp://", "rsync://" };
	size_t host_end;
	trim(&s, &len);
	/* a URL in <...> or quotes */
	while (len >= 2 && ((s[0] == '<' && s[len - 1] == '>') || (s[0] == '\'' && s[len - 1] == '\'') ||
			    (s[0] == '"' && s[len - 1] == '"'))) {
		s++;
		len -= 2;
	}
	for (size_t i = 0; i < sizeof schemes / sizeof *schemes; i++) {
		size_t n = strlen(schemes[i]);
		if (len >= n && strncasecmp(s, schemes[i], n) == 0) {
			s += n;
			len -= n;
			break;
		}
	}
	/* user@host: and user@ */
	{
		const char *at = memchr(s, '@', len), *slash = memchr(s, '/', len);
		if (at && (!slash || at < slash)) {
			len -= (size_t)(at + 1 - s);
			s = at + 1;
		}
	}
	mev__buf_clear(out);
	for (;;) {
		if (len && s[len - 1] == '/')
			len--;
		else if (len >= 4 && strncasecmp(s + len - 4, ".git", 4) == 0)
			len -= 4;
		else
			break;
	}
	host_end = 0;
	while (host_end < len && s[host_end] != '/' && s[host_end] != ':')
		host_end++;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (i < host_end)
			c = (char)tolower((unsigned char)c);
		else if (i == host_end && c == ':')
			c = '/'; /* scp form host:path */
		if (mev__buf_putc(out, c))
			return MEV_ENOMEM;
	}
	/* host:port/path keeps its port; a trailing ":" left by host: alone goes */
	return 0;
}

/* The quoted name after `kw` ("tag 'x'"), skipped: returns the rest or NULL. */
static const char *skip_quoted(const char *s, const char *end)
{
	const char *q = s;
	if (q >= end || *q != '\'')
		return NULL;
	q = memchr(q + 1, '\'', (size_t)(end - q - 1));
	return q ? q + 1 : NULL;
}

int mev__flow_merge_tree(mev_buf *out, const char *subject, size_t len)
{
	const char *s = subject, *end = subject + len, *of, *url = NULL;
	size_t ul;

	mev__buf_clear(out);
	if (mev__buf_puts(out, ""))
		return MEV_ENOMEM;
	if (len < 6 || strncmp(s, "Merge ", 6) != 0)
		return 0;
	s += 6;
	/* Merge tag 'x' of URL, Merge branch 'x' of URL, Merge branches 'a' and 'b' of URL,
	 * Merge remote-tracking branch 'x', Merge git://URL [branch], Merge URL */
	if ((end - s > 4 && strncmp(s, "tag ", 4) == 0) ||
	    (end - s > 7 && strncmp(s, "branch ", 7) == 0) ||
	    (end - s > 9 && strncmp(s, "branches ", 9) == 0) ||
	    (end - s > 14 && strncmp(s, "remote branch ", 14) == 0) ||
	    (end - s > 23 && strncmp(s, "remote-tracking branch ", 23) == 0) ||
	    (end - s > 7 && strncmp(s, "commit ", 7) == 0)) {
		const char *q = memchr(s, '\'', (size_t)(end - s));
		while (q && q < end) {
			const char *after = skip_quoted(q, end);
			if (!after)
				return 0;
			of = after;
			if (end - of > 4 && strncmp(of, " of ", 4) == 0) {
				url = of + 4;
				break;
			}
			if (end - of > 5 && strncmp(of, " and ", 5) == 0) {
				q = of + 5;
				continue;
			}
			if (end - of > 2 && strncmp(of, ", ", 2) == 0) {
				q = of + 2;
				continue;
			}
			return 0; /* a local branch or tag: no tree named */
		}
		if (!q || q >= end)
			return 0;
	} else if (memchr(s, ':', (size_t)(end - s)) || memchr(s, '/', (size_t)(end - s))) {
		url = s; /* Merge git://host/path [branch] */
		if (*url == '\'')
			url++;
	} else {
		return 0;
	}
	if (!url)
		return 0;
	ul = 0;
	while (url + ul < end && !isspace((unsigned char)url[ul]) && url[ul] != '\'')
		ul++;
	if (!url || !ul || (!memchr(url, '/', ul) && !memchr(url, ':', ul)))
		return 0;
	return mev__flow_url(out, url, ul);
}

int mev__flow_tline(mev_buf *out, const char *v, size_t len)
{
	const char *p = v, *end = v + len;
	trim(&p, &len);
	end = p + len;
	/* "git URL [branch]": the type first, when there is one */
	{
		const char *sp = p;
		while (sp < end && !isspace((unsigned char)*sp))
			sp++;
		if (sp < end && !memchr(p, '/', (size_t)(sp - p)) && !memchr(p, ':', (size_t)(sp - p))) {
			p = sp;
			while (p < end && isspace((unsigned char)*p))
				p++;
		}
	}
	{
		const char *e = p;
		while (e < end && !isspace((unsigned char)*e))
			e++;
		return mev__flow_url(out, p, (size_t)(e - p));
	}
}
