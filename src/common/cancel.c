/*-------------------------------------------------------------------------
 *
 * cancel.c
 *	  A non-blocking CancelRequest with a deadline.
 *
 * libpq's PQcancel blocks: it connects to the server and waits in recv()
 * for the server to close, without a timeout, and nothing interrupts it.
 * An endpoint that accepts the request and never answers held a driver
 * there forever, through pg_terminate_backend and a fast shutdown.  Every
 * cancel pgbenchx sends (driver.c, pqconn.c, recorder.c) goes through
 * cancel_send instead, which waits on the latch and the sockets with
 * WL_EXIT_ON_PM_DEATH, services interrupts after each wait and gives up at
 * its deadline.
 *
 * This file is the only one that knows how a CancelRequest is sent, and
 * the only version-dependent one about it:
 *
 * - with libpq 17 and later (LIBPQ_HAS_ASYNC_CANCEL), libpq's own
 *	 non-blocking cancel: PQcancelCreate, PQcancelStart, PQcancelPoll and
 *	 PQcancelSocket, PQcancelFinish;
 *
 * - before 17, the request is sent here, as PQcancel sends it: a new
 *	 connection to the address the connection is connected to (TCP or a
 *	 Unix socket), the 16-byte packet (length 16, CANCEL_REQUEST_CODE, the
 *	 backend's pid and key, in network order), then the wait for the server
 *	 to close.  The address, pid and key come from the PGcancel of
 *	 PQgetCancel, whose struct pg_cancel (libpq-int.h, not includable from
 *	 the server: it needs GSSAPI's headers) begins, in libpq 15 and 16, with
 *	 SockAddr raddr; int be_pid; int be_key.  That layout is mirrored below
 *	 and checked at run time against what libpq says through its API (the
 *	 pid is PQbackendPID's, the address family one we know): on a mismatch
 *	 nothing is sent.
 *
 * The sockets are not the connections' own: the connections are left as
 * they are, for the caller to drain or close.  Each socket is counted by
 * fd.c (ReserveExternalFD) while it is open.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/socket.h>
#include <unistd.h>

#include "libpq/pqcomm.h"
#include "miscadmin.h"
#include "port/pg_bswap.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "cancel.h"
#include "pg_compat.h"

/* at most this many requests are in progress at once (sockets open) */
#define CANCEL_MAX_OPEN		64

typedef enum CancelState
{
	CANCEL_CONNECTING,			/* waiting for the connect to complete */
	CANCEL_SENDING,				/* (the rest of) the packet to write */
	CANCEL_WAITING,				/* sent: waiting for the server to close */
	CANCEL_DELIVERED,			/* the server closed: done */
	CANCEL_FAILED				/* not sent, or no answer: done */
} CancelState;

typedef struct CancelOne
{
	CancelState state;
#ifdef LIBPQ_HAS_ASYNC_CANCEL
	PGcancelConn *cc;
	PostgresPollingStatusType poll;
#else
	pgsocket	sock;
	int			sent;
	uint32		packet[4];
#endif
} CancelOne;

static inline bool
cancel_done(const CancelOne *one)
{
	return one->state == CANCEL_DELIVERED || one->state == CANCEL_FAILED;
}

#ifdef LIBPQ_HAS_ASYNC_CANCEL

/* ---------------------------------------------------------------------
 * libpq 17 and later: libpq's own non-blocking cancel
 * --------------------------------------------------------------------- */

static void
cancel_start(CancelOne *one, PGconn *conn)
{
	one->state = CANCEL_FAILED;
	one->cc = PQcancelCreate(conn);
	if (one->cc == NULL)
		return;
	if (!PQcancelStart(one->cc))
		return;
	one->poll = PGRES_POLLING_WRITING;
	one->state = CANCEL_CONNECTING;
}

static int
cancel_events(CancelOne *one, pgsocket *sock)
{
	*sock = PQcancelSocket(one->cc);
	if (*sock == PGINVALID_SOCKET)
		return 0;
	return one->poll == PGRES_POLLING_READING ? WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE;
}

static void
cancel_step(CancelOne *one)
{
	one->poll = PQcancelPoll(one->cc);
	if (one->poll == PGRES_POLLING_OK)
		one->state = CANCEL_DELIVERED;
	else if (one->poll == PGRES_POLLING_FAILED)
		one->state = CANCEL_FAILED;
}

static void
cancel_close(CancelOne *one)
{
	if (one->cc)
		PQcancelFinish(one->cc);
	one->cc = NULL;
	if (!cancel_done(one))
		one->state = CANCEL_FAILED;
}

#else							/* !LIBPQ_HAS_ASYNC_CANCEL */

/* ---------------------------------------------------------------------
 * libpq 15 and 16: the CancelRequest written here
 * --------------------------------------------------------------------- */

/*
 * The beginning of libpq's struct pg_cancel in 15 and 16 (libpq-int.h);
 * SockAddr is the server's own (libpq/pqcomm.h), the same type.
 */
typedef struct CancelPgCancelHead
{
	SockAddr	raddr;
	int			be_pid;
	int			be_key;
} CancelPgCancelHead;

static void
cancel_start(CancelOne *one, PGconn *conn)
{
	PGcancel   *pc;
	CancelPgCancelHead head;
	int			family;

	one->state = CANCEL_FAILED;
	one->sock = PGINVALID_SOCKET;
	one->sent = 0;
	pc = PQgetCancel(conn);
	if (pc == NULL)
		return;
	memcpy(&head, pc, sizeof(head));
	PQfreeCancel(pc);

	family = head.raddr.addr.ss_family;
	if (head.be_pid != PQbackendPID(conn) ||
		(family != AF_UNIX && family != AF_INET && family != AF_INET6) ||
		head.raddr.salen == 0 || head.raddr.salen > sizeof(head.raddr.addr))
	{
		elog(LOG, "pgbenchx: libpq's cancel data is not laid out as expected, no cancel request sent");
		return;
	}

	one->packet[0] = pg_hton32(sizeof(one->packet));
	one->packet[1] = pg_hton32(CANCEL_REQUEST_CODE);
	one->packet[2] = pg_hton32((uint32) head.be_pid);
	one->packet[3] = pg_hton32((uint32) head.be_key);

	one->sock = socket(family, SOCK_STREAM, 0);
	if (one->sock == PGINVALID_SOCKET)
		return;					/* EMFILE, say: the caller closes the connection */
	ReserveExternalFD();
	if (!pg_set_noblock(one->sock))
		return;
	if (connect(one->sock, (struct sockaddr *) &head.raddr.addr, head.raddr.salen) == 0)
		one->state = CANCEL_SENDING;
	else if (errno == EINPROGRESS || errno == EINTR)
		one->state = CANCEL_CONNECTING;
	/* else (a refused connection, a full Unix socket backlog): not sent */
}

static int
cancel_events(CancelOne *one, pgsocket *sock)
{
	*sock = one->sock;
	return one->state == CANCEL_WAITING ? WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE;
}

static void
cancel_step(CancelOne *one)
{
	if (one->state == CANCEL_CONNECTING)
	{
		int			err = 0;
		socklen_t	len = sizeof(err);

		if (getsockopt(one->sock, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err != 0)
		{
			one->state = CANCEL_FAILED;
			return;
		}
		one->state = CANCEL_SENDING;
	}
	if (one->state == CANCEL_SENDING)
	{
		while (one->sent < (int) sizeof(one->packet))
		{
			ssize_t		rc = send(one->sock, (char *) one->packet + one->sent,
								  sizeof(one->packet) - one->sent, MSG_NOSIGNAL);

			if (rc < 0)
			{
				if (errno == EINTR)
					continue;
				if (errno != EAGAIN && errno != EWOULDBLOCK)
					one->state = CANCEL_FAILED;
				return;
			}
			one->sent += rc;
		}
		one->state = CANCEL_WAITING;
		return;					/* wait for readable */
	}
	if (one->state == CANCEL_WAITING)
	{
		char		buf[64];

		/* nothing is expected but the close; whatever comes is dropped */
		for (;;)
		{
			ssize_t		rc = recv(one->sock, buf, sizeof(buf), 0);

			if (rc > 0)
				continue;
			if (rc < 0 && errno == EINTR)
				continue;
			if (rc < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
				return;
			/* EOF, or an error (a reset), which PQcancel ignores as well */
			one->state = CANCEL_DELIVERED;
			return;
		}
	}
}

static void
cancel_close(CancelOne *one)
{
	if (one->sock != PGINVALID_SOCKET)
	{
		closesocket(one->sock);
		ReleaseExternalFD();
	}
	one->sock = PGINVALID_SOCKET;
	if (!cancel_done(one))
		one->state = CANCEL_FAILED;
}

#endif							/* LIBPQ_HAS_ASYNC_CANCEL */

/* ---------------------------------------------------------------------
 * The wait, the same for both
 * --------------------------------------------------------------------- */

/*
 * Wait until each of batch[0..n) is done or deadline; on an error (an
 * interrupt) the sockets are closed and the error goes on.
 */
static void
cancel_wait(CancelOne *batch, int n, TimestampTz deadline, bool *latch_seen)
{
	PG_TRY();
	{
		for (;;)
		{
			WaitEventSet *wes;
			WaitEvent	events[CANCEL_MAX_OPEN + 2];
			int			nwait = 0;
			int			nev;
			TimestampTz now = GetCurrentTimestamp();
			long		left;

			if (now >= deadline)
				break;
			left = (long) ((deadline - now + 999) / 1000);

			wes = pgx_create_wait_event_set(n + 2, false);
			AddWaitEventToSet(wes, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
			AddWaitEventToSet(wes, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
			for (int i = 0; i < n; i++)
			{
				pgsocket	sock;
				int			ev;

				if (cancel_done(&batch[i]))
					continue;
				ev = cancel_events(&batch[i], &sock);
				if (ev == 0)
				{
					batch[i].state = CANCEL_FAILED;
					continue;
				}
				AddWaitEventToSet(wes, ev, sock, NULL, &batch[i]);
				nwait++;
			}
			if (nwait == 0)
			{
				FreeWaitEventSet(wes);
				break;
			}
			nev = WaitEventSetWait(wes, left, events, lengthof(events),
								   PG_WAIT_EXTENSION);
			FreeWaitEventSet(wes);
			for (int i = 0; i < nev; i++)
			{
				if (events[i].events & WL_LATCH_SET)
				{
					ResetLatch(MyLatch);
					*latch_seen = true;
				}
				else if (events[i].user_data)
					cancel_step((CancelOne *) events[i].user_data);
			}
			/* an exiting process is already on its way out: only the deadline */
			if (!proc_exit_inprogress)
				CHECK_FOR_INTERRUPTS();
		}
	}
	PG_CATCH();
	{
		for (int i = 0; i < n; i++)
			cancel_close(&batch[i]);
		PG_RE_THROW();
	}
	PG_END_TRY();
}

/*
 * Drive the requests of batch[0..n) until each is done or deadline, closing
 * them all at the end (and on an error).  Returns how many were delivered.
 */
static int
cancel_batch(CancelOne *batch, int n, TimestampTz deadline, bool *latch_seen)
{
	int			delivered = 0;

	cancel_wait(batch, n, deadline, latch_seen);
	for (int i = 0; i < n; i++)
	{
		cancel_close(&batch[i]);
		if (batch[i].state == CANCEL_DELIVERED)
			delivered++;
	}
	return delivered;
}

int
cancel_send(PGconn *const *conns, int n, int timeout_ms)
{
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), timeout_ms);
	CancelOne	batch[CANCEL_MAX_OPEN];
	int			delivered = 0;
	bool		latch_seen = false;
	int			next = 0;

	while (next < n)
	{
		int			nb = 0;

		/* the next batch: CANCEL_MAX_OPEN requests at most */
		for (; next < n && nb < CANCEL_MAX_OPEN; next++)
		{
			PGconn	   *conn = conns[next];

			if (conn == NULL || PQstatus(conn) != CONNECTION_OK)
				continue;
			cancel_start(&batch[nb], conn);
			nb++;
		}
		if (nb > 0)
			delivered += cancel_batch(batch, nb, deadline, &latch_seen);
	}
	/* the caller's own wake-up, consumed by our wait, is given back */
	if (latch_seen)
		SetLatch(MyLatch);
	return delivered;
}
